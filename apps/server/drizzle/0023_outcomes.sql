CREATE TABLE "assessment_results" (
	"assessment_id" bigserial PRIMARY KEY NOT NULL,
	"participant_id" integer NOT NULL,
	"measure_id" integer NOT NULL,
	"timepoint" text NOT NULL,
	"week" integer,
	"taken_on" date NOT NULL,
	"value" double precision,
	"answers" jsonb,
	"score" double precision,
	"entered_in_error" boolean DEFAULT false NOT NULL,
	"note" text,
	"amends" bigint,
	"reason" text,
	"admin_user_id" integer,
	"admin_user_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assessment_results_timepoint_check" CHECK ("assessment_results"."timepoint" in ('baseline', 'interim', 'end')),
	CONSTRAINT "assessment_results_week_check" CHECK (("assessment_results"."timepoint" = 'interim') = ("assessment_results"."week" is not null)),
	CONSTRAINT "assessment_results_amendment_check" CHECK (("assessment_results"."amends" is null) = ("assessment_results"."reason" is null)),
	CONSTRAINT "assessment_results_score_check" CHECK (("assessment_results"."score" is null) = "assessment_results"."entered_in_error" and (not "assessment_results"."entered_in_error" or "assessment_results"."amends" is not null))
);
--> statement-breakpoint
CREATE TABLE "assessment_schedules" (
	"fitness_video_set_id" integer NOT NULL,
	"timepoint" text NOT NULL,
	"week" integer,
	"measure_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "assessment_schedules_key" UNIQUE NULLS NOT DISTINCT("fitness_video_set_id","timepoint","week","measure_id"),
	CONSTRAINT "assessment_schedules_timepoint_check" CHECK ("assessment_schedules"."timepoint" in ('baseline', 'interim', 'end')),
	CONSTRAINT "assessment_schedules_week_check" CHECK (("assessment_schedules"."timepoint" = 'interim') = ("assessment_schedules"."week" is not null))
);
--> statement-breakpoint
CREATE TABLE "outcome_measures" (
	"measure_id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"unit" text NOT NULL,
	"min" double precision NOT NULL,
	"max" double precision NOT NULL,
	"decimals" integer DEFAULT 0 NOT NULL,
	"higher_is_better" boolean NOT NULL,
	"mcid" double precision,
	"mcid_source" text,
	"instructions" text,
	"licence" text,
	"loinc" text,
	"scoring" text,
	"items" jsonb,
	"retired" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outcome_measures_kind_check" CHECK ("outcome_measures"."kind" in ('numeric', 'questionnaire')),
	CONSTRAINT "outcome_measures_range_check" CHECK ("outcome_measures"."min" <= "outcome_measures"."max"),
	CONSTRAINT "outcome_measures_decimals_check" CHECK ("outcome_measures"."decimals" between 0 and 4),
	CONSTRAINT "outcome_measures_questionnaire_check" CHECK (("outcome_measures"."kind" = 'questionnaire') = ("outcome_measures"."scoring" is not null and "outcome_measures"."items" is not null)),
	CONSTRAINT "outcome_measures_scoring_check" CHECK ("outcome_measures"."scoring" is null or "outcome_measures"."scoring" in ('sum', 'mean'))
);
--> statement-breakpoint
ALTER TABLE "assessment_results" ADD CONSTRAINT "assessment_results_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_results" ADD CONSTRAINT "assessment_results_measure_id_outcome_measures_measure_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."outcome_measures"("measure_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_results" ADD CONSTRAINT "assessment_results_amends_assessment_results_assessment_id_fk" FOREIGN KEY ("amends") REFERENCES "public"."assessment_results"("assessment_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_schedules" ADD CONSTRAINT "assessment_schedules_fitness_video_set_id_fitness_video_sets_fitness_video_set_id_fk" FOREIGN KEY ("fitness_video_set_id") REFERENCES "public"."fitness_video_sets"("fitness_video_set_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_schedules" ADD CONSTRAINT "assessment_schedules_measure_id_outcome_measures_measure_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."outcome_measures"("measure_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessment_results_participant_idx" ON "assessment_results" USING btree ("participant_id","measure_id","timepoint","assessment_id");--> statement-breakpoint
CREATE INDEX "assessment_results_amends_idx" ON "assessment_results" USING btree ("amends") WHERE "assessment_results"."amends" is not null;--> statement-breakpoint
CREATE INDEX "assessment_results_measure_idx" ON "assessment_results" USING btree ("measure_id");--> statement-breakpoint
CREATE INDEX "assessment_schedules_measure_idx" ON "assessment_schedules" USING btree ("measure_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outcome_measures_code_key" ON "outcome_measures" USING btree (lower("code"));