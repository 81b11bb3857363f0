CREATE TABLE "seen_weeks" (
	"participant_id" integer NOT NULL,
	"fitness_video_set_id" integer NOT NULL,
	"week_number" integer NOT NULL,
	"seen" integer NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "seen_weeks_participant_id_fitness_video_set_id_week_number_pk" PRIMARY KEY("participant_id","fitness_video_set_id","week_number")
);
--> statement-breakpoint
CREATE TABLE "video_day_views" (
	"day" date NOT NULL,
	"video_id" integer NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "video_day_views_day_video_id_pk" PRIMARY KEY("day","video_id")
);
