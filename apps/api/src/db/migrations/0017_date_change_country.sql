ALTER TABLE "sale_date_changes" ADD COLUMN "previous_destination_country" jsonb;--> statement-breakpoint
ALTER TABLE "sale_date_changes" ADD COLUMN "destination_country" jsonb;--> statement-breakpoint
-- Changes made before the country could change kept the sale's country: both sides are the change's snapshot's.
UPDATE "sale_date_changes" SET
	"previous_destination_country" = NULLIF("purchase" -> 'trip' -> 'destinationCountry', 'null'::jsonb),
	"destination_country" = NULLIF("purchase" -> 'trip' -> 'destinationCountry', 'null'::jsonb);
