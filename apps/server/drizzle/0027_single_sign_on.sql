CREATE TABLE "sso_configurations" (
	"organisation_id" integer PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_auth" text NOT NULL,
	"client_secret" text,
	"private_jwk" text,
	"role_claim" text NOT NULL,
	"role_map" jsonb NOT NULL,
	"site_claim" text,
	"jit" boolean DEFAULT false NOT NULL,
	"acr_values" text,
	"scopes" text,
	"required" boolean DEFAULT false NOT NULL,
	"break_glass" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_configurations_client_auth_check" CHECK ("sso_configurations"."client_auth" in ('client_secret_basic', 'private_key_jwt'))
);
--> statement-breakpoint
CREATE TABLE "sso_email_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_flows" (
	"state" text PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"session_id" uuid,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sso_logout_tokens" (
	"issuer" text NOT NULL,
	"jti" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_logout_tokens_issuer_jti_pk" PRIMARY KEY("issuer","jti")
);
--> statement-breakpoint
ALTER TABLE "admin_users" ADD COLUMN "sso_issuer" text;--> statement-breakpoint
ALTER TABLE "admin_users" ADD COLUMN "sso_subject" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "sso_organisation_id" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "sso_sid" text;--> statement-breakpoint
ALTER TABLE "sso_email_domains" ADD CONSTRAINT "sso_email_domains_organisation_id_sso_configurations_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."sso_configurations"("organisation_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_session_id_sessions_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("session_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_email_domains_organisation_idx" ON "sso_email_domains" USING btree ("organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "admin_users_sso_subject_key" ON "admin_users" USING btree ("sso_issuer","sso_subject");--> statement-breakpoint
CREATE INDEX "sessions_sso_sid_idx" ON "sessions" USING btree ("sso_sid") WHERE "sessions"."sso_sid" is not null;--> statement-breakpoint
ALTER TABLE "admin_users" ADD CONSTRAINT "admin_users_sso_check" CHECK (("admin_users"."sso_issuer" is null) = ("admin_users"."sso_subject" is null));