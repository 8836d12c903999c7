CREATE TABLE "certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" integer NOT NULL,
	"traveller_id" integer NOT NULL,
	"number" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificates_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "invoice_details" (
	"quotation_id" uuid PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"street_number" text NOT NULL,
	"apartment" text,
	"locality" text NOT NULL,
	"province" text NOT NULL,
	"generate_invoice" boolean DEFAULT false NOT NULL,
	"company_name" text,
	"company_rut" text,
	"company_business" text,
	"company_address" text,
	"company_email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"sale_id" integer NOT NULL,
	"dedupe_key" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_emails_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY NOT NULL,
	"sale_id" integer NOT NULL,
	"gateway" text NOT NULL,
	"buy_order" text NOT NULL,
	"session_id" text NOT NULL,
	"external_id" text,
	"amount_clp" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"claimed_at" timestamp with time zone,
	"payment_type_code" text,
	"instalments" integer,
	"authorization_code" text,
	"card_last_digits" text,
	"response_code" integer,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "payments_buy_order_unique" UNIQUE("buy_order"),
	CONSTRAINT "payments_external_id_unique" UNIQUE("external_id")
);
--> statement-breakpoint
CREATE TABLE "sales" (
	"id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"quotation_id" uuid NOT NULL,
	"product_id" integer NOT NULL,
	"amount_usd_cents" integer NOT NULL,
	"amount_clp" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_quotation_id_unique" UNIQUE("quotation_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_transactions" (
	"token" text PRIMARY KEY NOT NULL,
	"buy_order" text NOT NULL,
	"session_id" text NOT NULL,
	"amount_clp" integer NOT NULL,
	"return_url" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"decision" text,
	"instalments" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "travellers" (
	"id" serial PRIMARY KEY NOT NULL,
	"quotation_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"passenger_type_id" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"gender" text NOT NULL,
	"birth_date" date NOT NULL,
	"nationality_id" integer NOT NULL,
	"document_type" integer NOT NULL,
	"document_number" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"contact_first_name" text NOT NULL,
	"contact_last_name" text NOT NULL,
	"contact_phone" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "share_emergency_contact" boolean;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "emergency_first_name" text;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "emergency_last_name" text;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "emergency_phone" text;--> statement-breakpoint
ALTER TABLE "quotations" ADD COLUMN "country_destination_id" integer;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_traveller_id_travellers_id_fk" FOREIGN KEY ("traveller_id") REFERENCES "public"."travellers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_details" ADD CONSTRAINT "invoice_details_quotation_id_quotations_id_fk" FOREIGN KEY ("quotation_id") REFERENCES "public"."quotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD CONSTRAINT "outbox_emails_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_quotation_id_quotations_id_fk" FOREIGN KEY ("quotation_id") REFERENCES "public"."quotations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travellers" ADD CONSTRAINT "travellers_quotation_id_quotations_id_fk" FOREIGN KEY ("quotation_id") REFERENCES "public"."quotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travellers" ADD CONSTRAINT "travellers_passenger_type_id_passenger_types_id_fk" FOREIGN KEY ("passenger_type_id") REFERENCES "public"."passenger_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_sale_traveller" ON "certificates" USING btree ("sale_id","traveller_id");--> statement-breakpoint
CREATE UNIQUE INDEX "travellers_quotation_seq" ON "travellers" USING btree ("quotation_id","seq");--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_country_destination_id_countries_id_fk" FOREIGN KEY ("country_destination_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;