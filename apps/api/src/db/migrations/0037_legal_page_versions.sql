CREATE TABLE "legal_page_versions" (
	"company_id" integer NOT NULL,
	"slug" text NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"body_html" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "legal_page_versions_company_id_slug_version_pk" PRIMARY KEY("company_id","slug","version")
);
--> statement-breakpoint
ALTER TABLE "legal_pages" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "legal_page_versions" ADD CONSTRAINT "legal_page_versions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The texts in force become their version 1, published when they were last written.
INSERT INTO "legal_page_versions" ("company_id", "slug", "version", "title", "description", "body_html", "published_at")
SELECT "company_id", "slug", 1, "title", "description", "body_html", "updated_at" FROM "legal_pages";
