ALTER TABLE "sale_refunds" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sale_refunds" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "sale_refunds" ADD COLUMN "transfer_reference" text;--> statement-breakpoint
ALTER TABLE "sale_refunds" ADD COLUMN "marked_by" text;--> statement-breakpoint
ALTER TABLE "sale_refunds" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sale_refunds" ADD COLUMN "held_by" text;--> statement-breakpoint
UPDATE "sale_refunds" SET "method" = 'gateway' WHERE "status" = 'refunded';
