-- The covid upgrade becomes the add-on `covid` of every company (issue 27 §1; docs/pricing.md «Add-ons»): a 'daily'
-- add-on priced per plan, its plan prices the plans' former `products.covid_fee_cents_per_day`, for those plans only.
ALTER TABLE "add_ons" DROP CONSTRAINT "add_ons_price";--> statement-breakpoint
ALTER TABLE "add_ons" ADD COLUMN "plan_prices" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "add_ons" ADD CONSTRAINT "add_ons_plan_prices" CHECK (jsonb_typeof("add_ons"."plan_prices") = 'object' and not jsonb_path_exists("add_ons"."plan_prices", '$.keyvalue() ? (!(@.key like_regex "^[1-9][0-9]{0,8}$") || @.value.type() != "number" || @.value < 0 || @.value > 10000000 || @.value.floor() != @.value)'));--> statement-breakpoint
ALTER TABLE "add_ons" ADD CONSTRAINT "add_ons_price" CHECK (coalesce(("add_ons"."pricing" = 'daily' and ("add_ons"."price_cents_per_day" >= 0 or ("add_ons"."price_cents_per_day" is null and ("add_ons"."plan_prices" <> '{}'::jsonb or "add_ons"."code" = 'covid'))) and "add_ons"."plan_percent_bp" is null) or ("add_ons"."pricing" = 'percent' and "add_ons"."plan_percent_bp" between 0 and 10000 and "add_ons"."price_cents_per_day" is null and "add_ons"."plan_prices" = '{}'::jsonb), false));--> statement-breakpoint
-- One covid add-on per company, after its other add-ons; the texts are those of plans/covid-add-on.ts (the spec's
-- upgrade modal table). A company whose plans charge no fee gets it too, offered with no plan.
INSERT INTO "add_ons" ("company_id", "code", "name", "description", "benefits", "pricing", "price_cents_per_day", "plan_percent_bp", "plan_prices", "product_ids", "sort_order")
SELECT c."id", 'covid', 'Upgrade covid',
  'Amplía tu asistencia frente al COVID-19: interrupción del viaje, estadía prolongada y traslado de un familiar.',
  '[{"label": "Monto máximo global", "value": "USD 3.000"}, {"label": "Reembolso por interrupción de viaje debido a diagnóstico positivo de COVID-19", "value": "Hasta USD 3.000"}, {"label": "Gastos de hotel y alimentación por estadía prolongada", "value": "USD 180 por día, hasta USD 3.000"}, {"label": "Diferencia de tarifa o penalidad por regreso demorado", "value": "USD 2.000"}, {"label": "Traslado de un familiar (pasaje en clase económica)", "value": "Hasta USD 1.500"}, {"label": "Estadía de un familiar", "value": "USD 180 por día, hasta USD 1.000"}, {"label": "Cúmulo por evento múltiple", "value": "USD 10.000"}]'::jsonb,
  'daily', NULL, NULL,
  coalesce((SELECT jsonb_object_agg(p."id"::text, p."covid_fee_cents_per_day") FROM "products" p WHERE p."company_id" = c."id" AND p."covid_fee_cents_per_day" IS NOT NULL), '{}'::jsonb),
  coalesce((SELECT array_agg(p."id" ORDER BY p."id") FROM "products" p WHERE p."company_id" = c."id" AND p."covid_fee_cents_per_day" IS NOT NULL), '{}'),
  coalesce((SELECT max(a."sort_order") + 1 FROM "add_ons" a WHERE a."company_id" = c."id"), 0)
FROM "companies" c
ON CONFLICT ("company_id", "code") DO UPDATE SET "pricing" = 'daily', "price_cents_per_day" = NULL, "plan_percent_bp" = NULL, "plan_prices" = excluded."plan_prices", "product_ids" = excluded."product_ids";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "covid_fee_cents_per_day";
