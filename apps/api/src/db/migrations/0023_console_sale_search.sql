ALTER TABLE "certificate_search_keys" ADD COLUMN "name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "certificate_search_keys" ADD COLUMN "surname" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "certificate_search_keys_name" ON "certificate_search_keys" USING btree ("company_id","name" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "certificate_search_keys_surname" ON "certificate_search_keys" USING btree ("company_id","surname" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "certificates_sale" ON "certificates" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "jobs_sale" ON "jobs" USING btree ((("payload"->>'saleId')));--> statement-breakpoint
CREATE INDEX "payments_sale" ON "payments" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "sales_company_created" ON "sales" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sales_company_paid" ON "sales" USING btree ("company_id","paid_at");--> statement-breakpoint
-- hand-written: older certificates' name keys, by nameSearchKey's rule (lower case, accents folded, single spaces);
-- upper-case accented letters are folded too, as lower() leaves them alone under the C locale.
UPDATE "certificate_search_keys" AS k SET
  "name" = btrim(regexp_replace(translate(lower(t."first_name" || ' ' || t."last_name"), 'áàäâãéèëêíìïîóòöôõúùüûñçÁÀÄÂÃÉÈËÊÍÌÏÎÓÒÖÔÕÚÙÜÛÑÇ', 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc'), '\s+', ' ', 'g')),
  "surname" = btrim(regexp_replace(translate(lower(t."last_name" || ' ' || t."first_name"), 'áàäâãéèëêíìïîóòöôõúùüûñçÁÀÄÂÃÉÈËÊÍÌÏÎÓÒÖÔÕÚÙÜÛÑÇ', 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc'), '\s+', ' ', 'g'))
FROM "certificates" AS c JOIN "travellers" AS t ON t."id" = c."traveller_id"
WHERE c."id" = k."certificate_id";
