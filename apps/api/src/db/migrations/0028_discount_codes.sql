CREATE TABLE "discount_code_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"quotation_id" uuid NOT NULL,
	"product_id" integer NOT NULL,
	"status" text NOT NULL,
	"reserved_until" timestamp with time zone NOT NULL,
	"buyer_email" text NOT NULL,
	"buyer_document" text NOT NULL,
	"discount_usd_cents" integer NOT NULL,
	"discount_clp" integer NOT NULL,
	"revenue_usd_cents" integer NOT NULL,
	"revenue_clp" integer NOT NULL,
	"sale_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "discount_code_uses_quotation_id_unique" UNIQUE("quotation_id")
);
--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "kind" text DEFAULT 'percent' NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "amount_usd_cents" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "max_uses" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "max_uses_per_buyer" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "product_ids" integer[];--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_code_uses" ADD CONSTRAINT "discount_code_uses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discount_code_uses_code" ON "discount_code_uses" USING btree ("company_id","code","status");