CREATE TABLE "refund_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_label" text NOT NULL,
	"actor_operator_id" uuid,
	"from_status" text,
	"to_status" text,
	"text" text
);
--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "paid_amount_clp" integer;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "assigned_operator_id" uuid;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "assigned_operator_label" text;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_events" ADD CONSTRAINT "refund_events_request_id_refund_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."refund_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_events_request" ON "refund_events" USING btree ("request_id");