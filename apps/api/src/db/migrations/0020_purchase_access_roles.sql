CREATE TABLE "purchase_access_limits" (
	"sale_id" integer NOT NULL,
	"holder" text NOT NULL,
	"day" date NOT NULL,
	"codes_issued" integer DEFAULT 0 NOT NULL,
	"failed_tries" integer DEFAULT 0 NOT NULL,
	"cap_notice_sent_at" timestamp with time zone,
	CONSTRAINT "purchase_access_limits_sale_id_holder_day_pk" PRIMARY KEY("sale_id","holder","day")
);
--> statement-breakpoint
-- Codes and accesses made before roles were any traveller's and opened the whole purchase: none stays usable.
UPDATE "purchase_access_codes" SET "used_at" = now() WHERE "used_at" IS NULL;--> statement-breakpoint
UPDATE "purchase_access_tokens" SET "revoked_at" = now() WHERE "revoked_at" IS NULL;--> statement-breakpoint
ALTER TABLE "purchase_access_codes" ADD COLUMN "holder" text DEFAULT 'buyer' NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase_access_codes" ALTER COLUMN "holder" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "purchase_access_tokens" ADD COLUMN "holder" text DEFAULT 'buyer' NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase_access_tokens" ALTER COLUMN "holder" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "purchase_access_limits" ADD CONSTRAINT "purchase_access_limits_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;
