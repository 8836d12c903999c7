CREATE TABLE "audit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_operator_id" uuid,
	"actor_api_key_id" uuid,
	"actor_label" text NOT NULL,
	"ip" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "operator_api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"roles" text[] NOT NULL,
	"secret_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "operator_api_keys_secret_hash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
CREATE TABLE "operator_challenges" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operator_enrolments" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL,
	"totp_secret" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_recovery_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"operator_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL,
	CONSTRAINT "operator_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "operator_sign_in_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"roles" text[] NOT NULL,
	"state" text NOT NULL,
	"password_hash" text,
	"totp_secret" text,
	"totp_last_step" bigint,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operators_state" CHECK ("operators"."state" IN ('invited', 'active', 'deactivated'))
);
--> statement-breakpoint
ALTER TABLE "operator_api_keys" ADD CONSTRAINT "operator_api_keys_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_challenges" ADD CONSTRAINT "operator_challenges_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_enrolments" ADD CONSTRAINT "operator_enrolments_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_recovery_codes" ADD CONSTRAINT "operator_recovery_codes_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entries_actor" ON "audit_entries" USING btree ("actor_operator_id","id");--> statement-breakpoint
CREATE INDEX "audit_entries_action" ON "audit_entries" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_entries_at" ON "audit_entries" USING btree ("at");--> statement-breakpoint
CREATE INDEX "operator_enrolments_operator" ON "operator_enrolments" USING btree ("operator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_recovery_codes_hash" ON "operator_recovery_codes" USING btree ("operator_id","code_hash");--> statement-breakpoint
CREATE INDEX "operator_sessions_operator" ON "operator_sessions" USING btree ("operator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operators_email_lower" ON "operators" USING btree (lower("email"));--> statement-breakpoint
-- The audit trail is append-only: whatever role runs them, UPDATE, DELETE and TRUNCATE raise. Production also revokes
-- those privileges from the application's role (docs/operations.md «Operator console»).
CREATE FUNCTION "audit_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_entries_no_update_or_delete" BEFORE UPDATE OR DELETE ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION "audit_entries_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_entries_no_truncate" BEFORE TRUNCATE ON "audit_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_entries_append_only"();
