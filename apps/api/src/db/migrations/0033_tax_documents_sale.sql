CREATE SEQUENCE "public"."tax_documents_local_folio" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 900000001 CACHE 1;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD COLUMN "sale_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tax_documents_sale" ON "tax_documents" USING btree ("sale_id");