-- Organisations and their sites. An existing instance becomes one organisation, named by the
-- migrator's pathway.organisation_name setting (ORGANISATION_NAME, default "Pathway programme"),
-- with one site of the same name: every participant belongs to that site, every device, video set
-- and admin user to that organisation, and every full-access admin becomes a system administrator
-- too, so nothing changes for a single team. The tables are new in this transaction, so the
-- organisation and its site are number 1, which the new columns take as the default they are
-- added with (no rewrite of participants) before it is dropped. An NHS number is unique within
-- an organisation: another trust may hold a record of the same person.
CREATE TABLE "organisations" (
	"organisation_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"ods_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisations_ods_code_check" CHECK ("organisations"."ods_code" ~ '^[A-Z0-9]{3,5}$')
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"site_id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"name" text NOT NULL,
	"ods_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sites_site_organisation_key" UNIQUE("site_id","organisation_id"),
	CONSTRAINT "sites_ods_code_check" CHECK ("sites"."ods_code" ~ '^[A-Z0-9]{3,5}$')
);
--> statement-breakpoint
INSERT INTO "organisations" ("name")
VALUES (coalesce(nullif(btrim(current_setting('pathway.organisation_name', true)), ''), 'Pathway programme'));
--> statement-breakpoint
INSERT INTO "sites" ("organisation_id", "name") SELECT "organisation_id", "name" FROM "organisations";
--> statement-breakpoint
DROP INDEX "participants_nhs_number_key";--> statement-breakpoint
ALTER TABLE "admin_users" ADD COLUMN "organisation_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_users" ADD COLUMN "site_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_users" ADD COLUMN "system_administrator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "authorized_devices" ADD COLUMN "organisation_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "site_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "organisation_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "fitness_video_sets" ADD COLUMN "organisation_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "fitness_video_sets" ADD COLUMN "shared" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_organisation_id_organisations_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("organisation_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organisations_name_key" ON "organisations" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "organisations_ods_code_key" ON "organisations" USING btree ("ods_code");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_organisation_name_key" ON "sites" USING btree ("organisation_id",lower("name"));--> statement-breakpoint
ALTER TABLE "admin_users" ADD CONSTRAINT "admin_users_organisation_id_organisations_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("organisation_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorized_devices" ADD CONSTRAINT "authorized_devices_organisation_id_organisations_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("organisation_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_site_fk" FOREIGN KEY ("site_id","organisation_id") REFERENCES "public"."sites"("site_id","organisation_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fitness_video_sets" ADD CONSTRAINT "fitness_video_sets_organisation_id_organisations_organisation_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("organisation_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "participants_site_idx" ON "participants" USING btree ("site_id","participant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "participants_nhs_number_key" ON "participants" USING btree ("organisation_id","nhs_number");--> statement-breakpoint
ALTER TABLE "admin_users" ALTER COLUMN "organisation_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "authorized_devices" ALTER COLUMN "organisation_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "participants" ALTER COLUMN "site_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "participants" ALTER COLUMN "organisation_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "fitness_video_sets" ALTER COLUMN "organisation_id" DROP DEFAULT;--> statement-breakpoint
UPDATE "admin_users" SET "system_administrator" = true WHERE "role" = 'full access';
