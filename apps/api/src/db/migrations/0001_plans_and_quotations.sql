CREATE TABLE "discount_codes" (
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"percent_bp" integer NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	CONSTRAINT "discount_codes_company_id_code_pk" PRIMARY KEY("company_id","code")
);
--> statement-breakpoint
CREATE TABLE "product_benefits" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"label" text NOT NULL,
	"value" text NOT NULL,
	"is_priority" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_modalities" (
	"product_id" integer NOT NULL,
	"modality_id" integer NOT NULL,
	CONSTRAINT "product_modalities_product_id_modality_id_pk" PRIMARY KEY("product_id","modality_id")
);
--> statement-breakpoint
CREATE TABLE "product_rates" (
	"product_id" integer NOT NULL,
	"destination_id" integer NOT NULL,
	"passenger_type_id" integer NOT NULL,
	"rate_cents" integer NOT NULL,
	CONSTRAINT "product_rates_product_id_destination_id_passenger_type_id_pk" PRIMARY KEY("product_id","destination_id","passenger_type_id")
);
--> statement-breakpoint
CREATE TABLE "quotation_passengers" (
	"quotation_id" uuid NOT NULL,
	"passenger_type_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "quotation_passengers_quotation_id_passenger_type_id_pk" PRIMARY KEY("quotation_id","passenger_type_id")
);
--> statement-breakpoint
CREATE TABLE "quotations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"origin_id" integer NOT NULL,
	"destination_id" integer NOT NULL,
	"modality_id" integer NOT NULL,
	"departure_date" date NOT NULL,
	"return_date" date NOT NULL,
	"discount_code" text,
	"upgrade_covid" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'quoted' NOT NULL,
	"plan_id" integer,
	"referral_code" text,
	"pantalla" text,
	"name" text,
	"last_name" text,
	"phone" text,
	"email" text,
	"rut" text,
	"domicilio" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "rating" text DEFAULT 'daily' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "image" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "image_small" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "title_color" text DEFAULT '#0b5563' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "color" text DEFAULT '#0b5563' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "best_option_label" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "best_option_color" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "arrow_color" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "is_best_seller" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "medical_limit_usd" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "promotion_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "enable_tax" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "tax_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "covid_fee_cents_per_day" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_benefits" ADD CONSTRAINT "product_benefits_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_modalities" ADD CONSTRAINT "product_modalities_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_modalities" ADD CONSTRAINT "product_modalities_modality_id_modalities_id_fk" FOREIGN KEY ("modality_id") REFERENCES "public"."modalities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_rates" ADD CONSTRAINT "product_rates_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_rates" ADD CONSTRAINT "product_rates_destination_id_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."destinations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_rates" ADD CONSTRAINT "product_rates_passenger_type_id_passenger_types_id_fk" FOREIGN KEY ("passenger_type_id") REFERENCES "public"."passenger_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_passengers" ADD CONSTRAINT "quotation_passengers_quotation_id_quotations_id_fk" FOREIGN KEY ("quotation_id") REFERENCES "public"."quotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotation_passengers" ADD CONSTRAINT "quotation_passengers_passenger_type_id_passenger_types_id_fk" FOREIGN KEY ("passenger_type_id") REFERENCES "public"."passenger_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_origin_id_origins_id_fk" FOREIGN KEY ("origin_id") REFERENCES "public"."origins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_destination_id_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."destinations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_modality_id_modalities_id_fk" FOREIGN KEY ("modality_id") REFERENCES "public"."modalities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_plan_id_products_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;