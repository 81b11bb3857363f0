CREATE TABLE "followup_tally" (
	"tally_id" bigserial PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"delta" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "participant_followup" (
	"participant_id" integer PRIMARY KEY NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"has_device" boolean DEFAULT false NOT NULL,
	"has_programme" boolean DEFAULT false NOT NULL,
	"days_behind" integer DEFAULT 0 NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"device_assigned_at" timestamp with time zone,
	"tablet_called_at" timestamp with time zone,
	"token_empty" boolean DEFAULT true NOT NULL,
	"push_failures" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone,
	"snoozed_until" date,
	"snooze_reasons" text[] DEFAULT '{}'::text[] NOT NULL,
	"behind_since" timestamp with time zone,
	"slightly_since" timestamp with time zone,
	"silent_from" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"finished_since" timestamp with time zone,
	"not_started_from" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "participant_followup" ADD CONSTRAINT "participant_followup_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "followup_tally_reason_idx" ON "followup_tally" USING btree ("reason","delta");--> statement-breakpoint
CREATE INDEX "participant_followup_behind_idx" ON "participant_followup" USING btree ("behind_since","participant_id") WHERE "participant_followup"."behind_since" is not null;--> statement-breakpoint
CREATE INDEX "participant_followup_slightly_idx" ON "participant_followup" USING btree ("slightly_since","participant_id") WHERE "participant_followup"."slightly_since" is not null;--> statement-breakpoint
CREATE INDEX "participant_followup_silent_idx" ON "participant_followup" USING btree ("silent_from","participant_id") WHERE "participant_followup"."silent_from" is not null;--> statement-breakpoint
CREATE INDEX "participant_followup_failing_idx" ON "participant_followup" USING btree ("failing_since","participant_id") WHERE "participant_followup"."failing_since" is not null;--> statement-breakpoint
CREATE INDEX "participant_followup_finished_idx" ON "participant_followup" USING btree ("finished_since","participant_id") WHERE "participant_followup"."finished_since" is not null;--> statement-breakpoint
CREATE INDEX "participant_followup_not_started_idx" ON "participant_followup" USING btree ("not_started_from","participant_id") WHERE "participant_followup"."not_started_from" is not null;--> statement-breakpoint
CREATE INDEX "participant_followup_listed_idx" ON "participant_followup" USING btree ("participant_id") WHERE "participant_followup"."behind_since" is not null or "participant_followup"."slightly_since" is not null or "participant_followup"."failing_since" is not null or "participant_followup"."finished_since" is not null;--> statement-breakpoint
CREATE INDEX "participant_followup_silent_only_idx" ON "participant_followup" USING btree ("silent_from") WHERE "participant_followup"."silent_from" is not null and "participant_followup"."behind_since" is null and "participant_followup"."slightly_since" is null and "participant_followup"."failing_since" is null and "participant_followup"."finished_since" is null;--> statement-breakpoint
CREATE INDEX "participant_followup_not_started_only_idx" ON "participant_followup" USING btree ("not_started_from") WHERE "participant_followup"."not_started_from" is not null and "participant_followup"."behind_since" is null and "participant_followup"."slightly_since" is null and "participant_followup"."failing_since" is null and "participant_followup"."finished_since" is null;--> statement-breakpoint
CREATE INDEX "participant_followup_snoozed_idx" ON "participant_followup" USING btree ("snoozed_until") WHERE "participant_followup"."snoozed_until" is not null;