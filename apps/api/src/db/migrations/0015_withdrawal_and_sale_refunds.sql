CREATE TABLE "sale_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" integer NOT NULL,
	"payment_id" integer NOT NULL,
	"reason" text NOT NULL,
	"amount_clp" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"detail" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "sale_refunds_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "sale_refunds" ADD CONSTRAINT "sale_refunds_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_refunds" ADD CONSTRAINT "sale_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sale_refunds_sale" ON "sale_refunds" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "sale_refunds_due" ON "sale_refunds" USING btree ("next_attempt_at") WHERE "sale_refunds"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "voided_reason" text;--> statement-breakpoint
DROP INDEX "certificates_sale_traveller";--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_sale_traveller" ON "certificates" USING btree ("sale_id","traveller_id") WHERE "certificates"."voided_at" IS NULL;
