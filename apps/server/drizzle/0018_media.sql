CREATE TABLE "course" (
	"courseid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"coverfileid" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"appids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"updatedat" timestamp with time zone NOT NULL,
	CONSTRAINT "course_enabled_check" CHECK ("course"."enabled" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE "lesson" (
	"courseid" text NOT NULL,
	"lessonno" integer NOT NULL,
	"title" text NOT NULL,
	"videofileid" text NOT NULL,
	CONSTRAINT "lesson_courseid_lessonno_pk" PRIMARY KEY("courseid","lessonno"),
	CONSTRAINT "lesson_no_check" CHECK ("lesson"."lessonno" >= 1)
);
--> statement-breakpoint
CREATE TABLE "track" (
	"trackid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"title" text NOT NULL,
	"audiofileid" text NOT NULL,
	"coverfileid" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"appids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"updatedat" timestamp with time zone NOT NULL,
	CONSTRAINT "track_enabled_check" CHECK ("track"."enabled" in (0, 1))
);
--> statement-breakpoint
ALTER TABLE "course" ADD CONSTRAINT "course_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course" ADD CONSTRAINT "course_coverfileid_stored_file_fileid_fk" FOREIGN KEY ("coverfileid") REFERENCES "public"."stored_file"("fileid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson" ADD CONSTRAINT "lesson_courseid_course_courseid_fk" FOREIGN KEY ("courseid") REFERENCES "public"."course"("courseid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson" ADD CONSTRAINT "lesson_videofileid_stored_file_fileid_fk" FOREIGN KEY ("videofileid") REFERENCES "public"."stored_file"("fileid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track" ADD CONSTRAINT "track_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track" ADD CONSTRAINT "track_audiofileid_stored_file_fileid_fk" FOREIGN KEY ("audiofileid") REFERENCES "public"."stored_file"("fileid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track" ADD CONSTRAINT "track_coverfileid_stored_file_fileid_fk" FOREIGN KEY ("coverfileid") REFERENCES "public"."stored_file"("fileid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_muser_idx" ON "course" USING btree ("musercode","sort");--> statement-breakpoint
CREATE INDEX "track_muser_idx" ON "track" USING btree ("musercode","sort");