CREATE TABLE "refund_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "refund_uploads_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
-- Existing rows keep their bytes in "content" until start-up moves them to the document store; it then sets
-- "storage_key" NOT NULL and drops "content" (modules/refunds/documents-migration.ts). The snapshot is that final state.
ALTER TABLE "refund_files" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "refund_files" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_uploads" ADD CONSTRAINT "refund_uploads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_uploads_expires" ON "refund_uploads" USING btree ("expires_at");