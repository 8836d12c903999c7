CREATE TABLE "tax_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"source_key" text NOT NULL,
	"type" integer NOT NULL,
	"folio" integer,
	"net_clp" integer NOT NULL,
	"iva_clp" integer NOT NULL,
	"exempt_clp" integer NOT NULL,
	"total_clp" integer NOT NULL,
	"corrects_id" integer,
	"state" text DEFAULT 'pendiente' NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"provider" text,
	"provider_id" text,
	"pdf_key" text,
	"xml_key" text,
	"issued_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_documents_source_key_unique" UNIQUE("source_key"),
	CONSTRAINT "tax_documents_type" CHECK ("tax_documents"."type" in (39, 41, 33, 34, 61)),
	CONSTRAINT "tax_documents_corrects" CHECK (("tax_documents"."type" = 61) = ("tax_documents"."corrects_id" is not null)),
	CONSTRAINT "tax_documents_total" CHECK ("tax_documents"."total_clp" = "tax_documents"."net_clp" + "tax_documents"."iva_clp" + "tax_documents"."exempt_clp")
);
--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_corrects_id_tax_documents_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."tax_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_one_per_payment" ON "tax_documents" USING btree ("payment_id") WHERE type <> 61;--> statement-breakpoint
CREATE INDEX "tax_documents_state" ON "tax_documents" USING btree ("state","created_at");