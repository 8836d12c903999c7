CREATE TABLE "refund_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'recibida' NOT NULL,
	"holder_name" text NOT NULL,
	"document_type" integer NOT NULL,
	"document_number" text NOT NULL,
	"document_key" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"certificate_number" text NOT NULL,
	"description" text NOT NULL,
	"incident_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"currency" text NOT NULL,
	"bank_code" text NOT NULL,
	"account_type" text NOT NULL,
	"account_number" text NOT NULL,
	"approved_amount" numeric(14, 2),
	"rejection_reason" text,
	"missing_documents" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_requests_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "refund_files" ADD CONSTRAINT "refund_files_request_id_refund_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."refund_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_files_request" ON "refund_files" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "refund_requests_company" ON "refund_requests" USING btree ("company_id");