CREATE TABLE "certificate_search_keys" (
	"certificate_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"document" text NOT NULL,
	"email" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificate_search_keys" ADD CONSTRAINT "certificate_search_keys_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_search_keys" ADD CONSTRAINT "certificate_search_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificate_search_keys_document" ON "certificate_search_keys" USING btree ("company_id","document");--> statement-breakpoint
CREATE INDEX "certificate_search_keys_email" ON "certificate_search_keys" USING btree ("company_id","email");--> statement-breakpoint
-- The certificates issued before this migration: their keys from the travellers they name, normalised as the
-- search does (modules/certificates/repository.ts: document without dots, dashes or whitespace, upper case; e-mail
-- trimmed, lower case).
INSERT INTO "certificate_search_keys" ("certificate_id", "company_id", "document", "email")
SELECT "certificates"."id",
	"sales"."company_id",
	upper(regexp_replace("travellers"."document_number", '[-.[:space:]]', '', 'g')),
	lower(btrim("travellers"."email", E' \t\n\r\f\v'))
FROM "certificates"
	INNER JOIN "sales" ON "sales"."id" = "certificates"."sale_id"
	INNER JOIN "travellers" ON "travellers"."id" = "certificates"."traveller_id";
