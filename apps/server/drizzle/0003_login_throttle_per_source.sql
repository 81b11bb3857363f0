-- Sign-in failures are counted per user name and source address (issue 12), so an outsider's
-- wrong passwords lock that outsider's address only. Rows kept from 0.1.0 get source ''.
ALTER TABLE "login_throttle" ADD COLUMN "source" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "login_throttle" DROP CONSTRAINT "login_throttle_pkey";--> statement-breakpoint
ALTER TABLE "login_throttle" ADD CONSTRAINT "login_throttle_user_name_source_pk" PRIMARY KEY("user_name","source");
