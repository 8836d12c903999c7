-- The certificate e-mail outbox becomes the general job queue (modules/jobs). Every row moves, with its id: a
-- certificate e-mail's Message-ID is made from its id, so one sent before this migration and sent again after it
-- (a run that died before marking it) is still recognisably the same message. Dedupe keys move too, so the automatic
-- e-mail of a sale and a manual send of the current window are not queued again.
CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
INSERT INTO "jobs" ("id", "kind", "payload", "dedupe_key", "status", "attempts", "run_after", "last_error", "created_at", "updated_at")
SELECT
	"id",
	CASE "kind" WHEN 'certificate' THEN 'certificate-email' ELSE "kind" END,
	jsonb_build_object('saleId', "sale_id"),
	"dedupe_key",
	CASE "status" WHEN 'sent' THEN 'done' ELSE "status" END,
	"attempts",
	"run_after",
	"last_error",
	"created_at",
	COALESCE("sent_at", "created_at")
FROM "outbox_emails";
--> statement-breakpoint
-- New jobs are numbered after the moved ones (from 1 when there were none).
SELECT setval(pg_get_serial_sequence('jobs', 'id'), COALESCE(MAX("id"), 1), MAX("id") IS NOT NULL) FROM "jobs";
--> statement-breakpoint
DROP TABLE "outbox_emails" CASCADE;
--> statement-breakpoint
CREATE INDEX "jobs_due" ON "jobs" USING btree ("run_after") WHERE "jobs"."status" = 'pending';
