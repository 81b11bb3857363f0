CREATE TABLE "adherence_runs" (
	"run_date" date PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"participants_checked" integer
);
--> statement-breakpoint
CREATE TABLE "admin_users" (
	"admin_user_id" serial PRIMARY KEY NOT NULL,
	"user_name" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"role" text DEFAULT 'basic access' NOT NULL,
	"password_hash" text NOT NULL,
	"totp_secret" text NOT NULL,
	"totp_last_step" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_users_role_check" CHECK ("admin_users"."role" in ('basic access', 'full access'))
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"audit_event_id" bigserial PRIMARY KEY NOT NULL,
	"admin_user_id" integer,
	"admin_user_name" text NOT NULL,
	"action" text NOT NULL,
	"participant_id" integer,
	"participant_ids" integer[],
	"detail" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "authorized_devices" (
	"authorized_device_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"uuid" text NOT NULL,
	"push_notification_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "authorized_devices_uuid_lower_check" CHECK ("authorized_devices"."uuid" = lower("authorized_devices"."uuid"))
);
--> statement-breakpoint
CREATE TABLE "daily_views" (
	"day" date PRIMARY KEY NOT NULL,
	"views" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"authorized_device_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"user_name" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "participant_tally" (
	"tally_id" bigserial PRIMARY KEY NOT NULL,
	"adherence" integer NOT NULL,
	"with_programme" boolean NOT NULL,
	"delta" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "participants" (
	"participant_id" serial PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"gender" text,
	"date_of_birth" date NOT NULL,
	"email" text,
	"phone_number" text NOT NULL,
	"phone_number_secondary" text,
	"address" text NOT NULL,
	"language" text,
	"authorized_device_id" integer,
	"last_ip_address" text,
	"days_behind" integer DEFAULT 0 NOT NULL,
	"adherence" integer GENERATED ALWAYS AS (case when days_behind <= 0 then 0 when days_behind <= 2 then 1 else 2 end) STORED NOT NULL,
	"push_notification_id" text DEFAULT 'empty' NOT NULL,
	"purge_cache" boolean DEFAULT false NOT NULL,
	"programme_referred_to" text,
	"referring_organisation" text,
	"referring_healthcare_professional" text,
	"referring_healthcare_professional_role" text,
	"checked_contraindications_to_exercise" boolean,
	"smoker" boolean,
	"diabetes" boolean,
	"registered_deaf" boolean,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fitness_participation_progress" (
	"fitness_participation_progress_id" serial PRIMARY KEY NOT NULL,
	"participant_id" integer NOT NULL,
	"fitness_video_set_id" integer NOT NULL,
	"current_week" integer DEFAULT 1 NOT NULL,
	"current_day" integer DEFAULT 1 NOT NULL,
	"started_date" date NOT NULL,
	"last_seen_date" date NOT NULL,
	"percentage_progress" integer DEFAULT 0 NOT NULL,
	"video_stopped_at" text DEFAULT '0' NOT NULL,
	"missed_at_check" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_outbox" (
	"push_id" bigserial PRIMARY KEY NOT NULL,
	"participant_id" integer,
	"target_token" text,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"kind" text NOT NULL,
	"dedupe_key" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "seen_videos" (
	"seen_video_id" bigserial PRIMARY KEY NOT NULL,
	"participant_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"fitness_video_set_id" integer NOT NULL,
	"week_number" integer NOT NULL,
	"day_number" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"session_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "fitness_video_sets" (
	"fitness_video_set_id" serial PRIMARY KEY NOT NULL,
	"set_name" text NOT NULL,
	"number_of_weeks" integer NOT NULL,
	"videos_in_week" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_sets_weeks_check" CHECK ("fitness_video_sets"."number_of_weeks" >= 1),
	CONSTRAINT "video_sets_videos_in_week_check" CHECK ("fitness_video_sets"."videos_in_week" between 1 and 7)
);
--> statement-breakpoint
CREATE TABLE "video_uploads" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'receiving' NOT NULL,
	"file_size" bigint NOT NULL,
	"content_type" text,
	"duration_seconds" double precision,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "video_uploads_status_check" CHECK ("video_uploads"."status" in ('receiving', 'ready'))
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"video_id" serial PRIMARY KEY NOT NULL,
	"fitness_video_set_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"file_location_path" text NOT NULL,
	"file_size" bigint DEFAULT 0 NOT NULL,
	"video_thumbnail_url" text DEFAULT 'processing....' NOT NULL,
	"poster_url" text,
	"video_length" text DEFAULT '0' NOT NULL,
	"week_number" integer NOT NULL,
	"day_number" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_authorized_device_id_authorized_devices_authorized_device_id_fk" FOREIGN KEY ("authorized_device_id") REFERENCES "public"."authorized_devices"("authorized_device_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_authorized_device_id_authorized_devices_authorized_device_id_fk" FOREIGN KEY ("authorized_device_id") REFERENCES "public"."authorized_devices"("authorized_device_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fitness_participation_progress" ADD CONSTRAINT "fitness_participation_progress_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fitness_participation_progress" ADD CONSTRAINT "fitness_participation_progress_fitness_video_set_id_fitness_video_sets_fitness_video_set_id_fk" FOREIGN KEY ("fitness_video_set_id") REFERENCES "public"."fitness_video_sets"("fitness_video_set_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_outbox" ADD CONSTRAINT "push_outbox_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seen_videos" ADD CONSTRAINT "seen_videos_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seen_videos" ADD CONSTRAINT "seen_videos_video_id_videos_video_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("video_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_admin_user_id_admin_users_admin_user_id_fk" FOREIGN KEY ("admin_user_id") REFERENCES "public"."admin_users"("admin_user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_uploads" ADD CONSTRAINT "video_uploads_created_by_admin_users_admin_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admin_users"("admin_user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_fitness_video_set_id_fitness_video_sets_fitness_video_set_id_fk" FOREIGN KEY ("fitness_video_set_id") REFERENCES "public"."fitness_video_sets"("fitness_video_set_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_users_user_name_key" ON "admin_users" USING btree (lower("user_name"));--> statement-breakpoint
CREATE INDEX "audit_events_created_at_idx" ON "audit_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_events_participant_idx" ON "audit_events" USING btree ("participant_id");--> statement-breakpoint
CREATE INDEX "audit_events_participant_ids_idx" ON "audit_events" USING gin ("participant_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "authorized_devices_uuid_key" ON "authorized_devices" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "device_tokens_device_idx" ON "device_tokens" USING btree ("authorized_device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "participants_device_key" ON "participants" USING btree ("authorized_device_id");--> statement-breakpoint
CREATE INDEX "participants_days_behind_idx" ON "participants" USING btree ("days_behind","participant_id");--> statement-breakpoint
CREATE INDEX "participants_adherence_idx" ON "participants" USING btree ("adherence","participant_id");--> statement-breakpoint
CREATE INDEX "participants_last_name_idx" ON "participants" USING btree ("last_name","participant_id");--> statement-breakpoint
CREATE INDEX "participants_first_name_idx" ON "participants" USING btree ("first_name","participant_id");--> statement-breakpoint
CREATE INDEX "participants_date_of_birth_idx" ON "participants" USING btree ("date_of_birth","participant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "progress_participant_key" ON "fitness_participation_progress" USING btree ("participant_id");--> statement-breakpoint
CREATE INDEX "progress_set_idx" ON "fitness_participation_progress" USING btree ("fitness_video_set_id");--> statement-breakpoint
CREATE UNIQUE INDEX "push_outbox_dedupe_key" ON "push_outbox" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "push_outbox_status_idx" ON "push_outbox" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "seen_videos_participant_video_key" ON "seen_videos" USING btree ("participant_id","video_id");--> statement-breakpoint
CREATE INDEX "seen_videos_created_at_idx" ON "seen_videos" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sessions_admin_user_idx" ON "sessions" USING btree ("admin_user_id");--> statement-breakpoint
CREATE INDEX "video_uploads_activity_idx" ON "video_uploads" USING btree ("status","last_activity_at");--> statement-breakpoint
CREATE UNIQUE INDEX "videos_set_position_key" ON "videos" USING btree ("fitness_video_set_id","week_number","day_number");--> statement-breakpoint
CREATE INDEX "videos_file_idx" ON "videos" USING btree ("file_location_path");