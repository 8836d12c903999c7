ALTER TABLE "exchange_rates" ADD COLUMN "source" text DEFAULT 'seed' NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD COLUMN "observed_on" date;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "clp_per_usd" numeric(14, 4);--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_rates_fetched_day" ON "exchange_rates" USING btree ("company_id","from_currency","to_currency","observed_on") WHERE "exchange_rates"."source" IN ('bcch', 'mindicador');--> statement-breakpoint
CREATE INDEX "exchange_rates_company_valid" ON "exchange_rates" USING btree ("company_id","valid_from","id");--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD CONSTRAINT "exchange_rates_source_check" CHECK ("exchange_rates"."source" IN ('seed', 'manual', 'bcch', 'mindicador'));--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD CONSTRAINT "exchange_rates_rate_positive" CHECK ("exchange_rates"."rate" > 0);