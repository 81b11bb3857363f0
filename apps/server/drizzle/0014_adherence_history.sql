CREATE TABLE "adherence_history" (
	"day" date PRIMARY KEY NOT NULL,
	"on_track" integer NOT NULL,
	"slightly_behind" integer NOT NULL,
	"behind" integer NOT NULL
);
