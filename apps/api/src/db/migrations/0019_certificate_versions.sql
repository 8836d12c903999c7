-- Each version of a sale's certificates has its own verification code (issue 22, item 4): version 1 as paid, one
-- more for each date change that replaced them. A replaced version keeps the dates it certified and answers
-- «reemplazado» with the date it was replaced, never the sale's new trip.
ALTER TABLE "certificate_verifications" DROP CONSTRAINT "certificate_verifications_pkey";--> statement-breakpoint
ALTER TABLE "certificate_verifications" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "certificate_verifications" ADD CONSTRAINT "certificate_verifications_sale_id_version_pk" PRIMARY KEY("sale_id","version");--> statement-breakpoint
ALTER TABLE "certificate_verifications" ADD COLUMN "replaced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificate_verifications" ADD COLUMN "departure_date" text;--> statement-breakpoint
ALTER TABLE "certificate_verifications" ADD COLUMN "return_date" text;--> statement-breakpoint
-- Until now a sale had one code for good, printed on its certificates before and after every date change. A sale
-- whose dates changed: that code becomes version 1, the certificates as paid, replaced by the first change applied,
-- with the dates they certified (the change's previous dates). The current certificates get a code of their own on
-- their next PDF (modules/certificates: currentVerificationCode).
UPDATE "certificate_verifications" AS "verification"
SET "replaced_at" = "first_change"."applied_at",
	"departure_date" = "first_change"."previous_departure_date",
	"return_date" = "first_change"."previous_return_date"
FROM (
	SELECT DISTINCT ON ("sale_id") "sale_id",
		COALESCE("applied_at", "created_at") AS "applied_at",
		"previous_departure_date",
		"previous_return_date"
	FROM "sale_date_changes"
	WHERE "status" = 'applied'
	ORDER BY "sale_id", COALESCE("applied_at", "created_at"), "id"
) AS "first_change"
WHERE "verification"."sale_id" = "first_change"."sale_id";--> statement-breakpoint
-- Their travellers hold certificates with the replaced code: the certificate e-mail goes again (modules/jobs), with
-- the current certificates and their new code, for the sales still paid whose trip has not ended.
INSERT INTO "jobs" ("kind", "payload", "dedupe_key")
SELECT 'certificate-email', jsonb_build_object('saleId', "sales"."id"), 'certificate:new-code:' || "sales"."id"
FROM "certificate_verifications"
	INNER JOIN "sales" ON "sales"."id" = "certificate_verifications"."sale_id"
WHERE "certificate_verifications"."replaced_at" IS NOT NULL
	AND "sales"."status" = 'paid'
	AND "sales"."purchase" -> 'trip' ->> 'returnDate' >= to_char(current_date, 'YYYY-MM-DD')
ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_verifications_current" ON "certificate_verifications" USING btree ("sale_id") WHERE "certificate_verifications"."replaced_at" IS NULL;
