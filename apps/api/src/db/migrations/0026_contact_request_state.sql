ALTER TABLE "contact_requests" ADD COLUMN "state" text DEFAULT 'unanswered' NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "reply" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "closed_by_operator_id" uuid;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "closed_by_name" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "closed_by_label" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD CONSTRAINT "contact_requests_closed_by_operator_id_operators_id_fk" FOREIGN KEY ("closed_by_operator_id") REFERENCES "public"."operators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_requests_state_id" ON "contact_requests" USING btree ("state","id");--> statement-breakpoint
ALTER TABLE "contact_requests" ADD CONSTRAINT "contact_requests_state" CHECK ("contact_requests"."state" IN ('unanswered', 'answered', 'handled'));