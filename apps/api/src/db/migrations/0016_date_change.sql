ALTER TABLE "payments" ADD COLUMN "purpose" text DEFAULT 'purchase' NOT NULL;--> statement-breakpoint
CREATE TABLE "sale_date_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" integer NOT NULL,
	"status" text NOT NULL,
	"previous_departure_date" text NOT NULL,
	"previous_return_date" text NOT NULL,
	"departure_date" text NOT NULL,
	"return_date" text NOT NULL,
	"purchase" jsonb NOT NULL,
	"amount_clp" integer NOT NULL,
	"amount_usd_cents" integer NOT NULL,
	"difference_clp" integer NOT NULL,
	"payment_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "sale_date_changes" ADD CONSTRAINT "sale_date_changes_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_date_changes" ADD CONSTRAINT "sale_date_changes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sale_date_changes_sale" ON "sale_date_changes" USING btree ("sale_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sale_date_changes_payment" ON "sale_date_changes" USING btree ("payment_id");
