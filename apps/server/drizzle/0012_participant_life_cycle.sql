-- A participant's life (issues 31, 32, 33): NHS number, status and discharge on the participant,
-- the contact log, and the history of device assignments. Every existing participant is active.
CREATE TABLE "device_assignments" (
	"device_assignment_id" bigserial PRIMARY KEY NOT NULL,
	"participant_id" integer NOT NULL,
	"authorized_device_id" integer,
	"device_uuid" text NOT NULL,
	"device_name" text NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unassigned_at" timestamp with time zone,
	"assigned_by" integer
);
--> statement-breakpoint
CREATE TABLE "participant_contacts" (
	"contact_id" bigserial PRIMARY KEY NOT NULL,
	"participant_id" integer NOT NULL,
	"method" text NOT NULL,
	"outcome" text NOT NULL,
	"note" text,
	"next_followup_on" date,
	"reasons" text[] DEFAULT '{}'::text[] NOT NULL,
	"admin_user_id" integer,
	"admin_user_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "participant_contacts_method_check" CHECK ("participant_contacts"."method" in ('phone', 'text', 'email', 'in_person', 'letter')),
	CONSTRAINT "participant_contacts_outcome_check" CHECK ("participant_contacts"."outcome" in ('reached', 'no_answer', 'left_message', 'wrong_number', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "nhs_number" text;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "discharged_on" date;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "discharge_reason" text;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "discharge_note" text;--> statement-breakpoint
ALTER TABLE "device_assignments" ADD CONSTRAINT "device_assignments_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_assignments" ADD CONSTRAINT "device_assignments_authorized_device_id_authorized_devices_authorized_device_id_fk" FOREIGN KEY ("authorized_device_id") REFERENCES "public"."authorized_devices"("authorized_device_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_contacts" ADD CONSTRAINT "participant_contacts_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_assignments_participant_idx" ON "device_assignments" USING btree ("participant_id","assigned_at");--> statement-breakpoint
CREATE INDEX "device_assignments_device_idx" ON "device_assignments" USING btree ("authorized_device_id");--> statement-breakpoint
CREATE INDEX "participant_contacts_participant_idx" ON "participant_contacts" USING btree ("participant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "participants_nhs_number_key" ON "participants" USING btree ("nhs_number");--> statement-breakpoint
CREATE INDEX "participants_status_idx" ON "participants" USING btree ("status","participant_id");--> statement-breakpoint
CREATE INDEX "participants_discharged_on_idx" ON "participants" USING btree ("discharged_on") WHERE "participants"."discharged_on" is not null;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_status_check" CHECK ("participants"."status" in ('active', 'completed', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_discharge_check" CHECK (("participants"."status" = 'active') = ("participants"."discharged_on" is null) and ("participants"."discharge_reason" is null or "participants"."status" = 'withdrawn'));;--> statement-breakpoint
-- Tablets assigned before this release: their assignment is open from the participant's
-- registration (the day it really began was not recorded; it cannot be later than now).
INSERT INTO "device_assignments" ("participant_id", "authorized_device_id", "device_uuid", "device_name", "assigned_at")
SELECT p."participant_id", d."authorized_device_id", d."uuid", d."name", p."created_at"
FROM "participants" p JOIN "authorized_devices" d ON d."authorized_device_id" = p."authorized_device_id";