CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_throttle" ADD COLUMN "source" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "login_throttle" DROP CONSTRAINT "login_throttle_pkey";--> statement-breakpoint
ALTER TABLE "login_throttle" ADD CONSTRAINT "login_throttle_user_name_source_pk" PRIMARY KEY("user_name","source");
