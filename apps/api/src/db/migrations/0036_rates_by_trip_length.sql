ALTER TABLE "product_rates" ADD COLUMN "min_days" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "product_rates" DROP CONSTRAINT "product_rates_product_id_destination_id_passenger_type_id_pk";--> statement-breakpoint
ALTER TABLE "product_rates" ADD CONSTRAINT "product_rates_product_id_destination_id_passenger_type_id_min_days_pk" PRIMARY KEY("product_id","destination_id","passenger_type_id","min_days");--> statement-breakpoint
ALTER TABLE "product_rates" ADD CONSTRAINT "product_rates_min_days" CHECK ("product_rates"."min_days" between 1 and 366);
