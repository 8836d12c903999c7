CREATE TABLE "add_ons" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"benefits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pricing" text NOT NULL,
	"price_cents_per_day" integer,
	"plan_percent_bp" integer,
	"passenger_type_ids" integer[] DEFAULT '{}' NOT NULL,
	"modality_ids" integer[] DEFAULT '{}' NOT NULL,
	"destination_ids" integer[] DEFAULT '{}' NOT NULL,
	"product_ids" integer[] DEFAULT '{}' NOT NULL,
	"buyable_after_purchase" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "add_ons_price" CHECK (coalesce(("add_ons"."pricing" = 'daily' and "add_ons"."price_cents_per_day" >= 0 and "add_ons"."plan_percent_bp" is null) or ("add_ons"."pricing" = 'percent' and "add_ons"."plan_percent_bp" between 0 and 10000 and "add_ons"."price_cents_per_day" is null), false))
);
--> statement-breakpoint
ALTER TABLE "add_ons" ADD CONSTRAINT "add_ons_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "add_ons_company_code" ON "add_ons" USING btree ("company_id","code");