ALTER TABLE "discount_code_uses" ADD COLUMN "percent_bp" integer;--> statement-breakpoint
ALTER TABLE "discount_code_uses" ADD COLUMN "amount_usd_cents" integer;