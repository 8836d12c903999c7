ALTER TABLE "subscriptions" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "confirmation_token" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "confirmation_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "confirmation_sent_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_confirmation_token" ON "subscriptions" USING btree ("confirmation_token");--> statement-breakpoint
-- The addresses subscribed before the double opt-in stay subscribers: they count as confirmed when they subscribed.
UPDATE "subscriptions" SET "confirmed_at" = "created_at" WHERE "confirmed_at" IS NULL;
