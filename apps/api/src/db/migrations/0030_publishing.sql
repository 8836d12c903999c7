CREATE TABLE "publications" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"body" jsonb NOT NULL,
	"before" jsonb,
	"status" text NOT NULL,
	"publish_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"rollback_of" integer
);
--> statement-breakpoint
CREATE TABLE "publishing_drafts" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"body" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "publishing_drafts_kind_key_pk" PRIMARY KEY("kind","key")
);
--> statement-breakpoint
CREATE INDEX "publications_item" ON "publications" USING btree ("kind","key","id");--> statement-breakpoint
CREATE UNIQUE INDEX "publications_one_scheduled" ON "publications" USING btree ("kind","key") WHERE "publications"."status" = 'scheduled';