CREATE TABLE "device_sign_ins" (
	"device_sign_in_id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"authorized_device_id" integer,
	"device_uuid" text NOT NULL,
	"participant_id" integer,
	"ip_address" text NOT NULL,
	"flagged" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_tokens" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "tablet_last_contact_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_sign_ins" ADD CONSTRAINT "device_sign_ins_authorized_device_id_authorized_devices_authorized_device_id_fk" FOREIGN KEY ("authorized_device_id") REFERENCES "public"."authorized_devices"("authorized_device_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_sign_ins" ADD CONSTRAINT "device_sign_ins_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_sign_ins_created_at_idx" ON "device_sign_ins" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "device_sign_ins_device_idx" ON "device_sign_ins" USING btree ("authorized_device_id","created_at");--> statement-breakpoint
CREATE INDEX "rate_limit_counters_reset_at_idx" ON "rate_limit_counters" USING btree ("reset_at");--> statement-breakpoint
CREATE INDEX "participants_tablet_contact_idx" ON "participants" USING btree (coalesce("tablet_last_contact_at", '1970-01-01T00:00:00Z'::timestamptz),"participant_id");