ALTER TABLE "payments" ADD COLUMN "purchase" jsonb;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "access_token" text DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "purchase" jsonb;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "test_payment" boolean DEFAULT false NOT NULL;