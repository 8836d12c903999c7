ALTER TABLE "sale_refunds" ADD COLUMN "held_reason" text;--> statement-breakpoint
ALTER TABLE "sale_refunds" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sale_refunds_transfer_reference" ON "sale_refunds" USING btree ("transfer_reference");