CREATE TABLE "assessment_indicator" (
	"assessid" text NOT NULL,
	"formcode" text NOT NULL,
	"code" text NOT NULL,
	"score" double precision NOT NULL,
	"level" integer,
	"colour" text,
	"mood" text,
	CONSTRAINT "assessment_indicator_assessid_code_pk" PRIMARY KEY("assessid","code")
);
--> statement-breakpoint
CREATE TABLE "report_comment" (
	"commentid" text PRIMARY KEY NOT NULL,
	"assessid" text NOT NULL,
	"musercode" text NOT NULL,
	"userid" text,
	"comment" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "hidden" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment_indicator" ADD CONSTRAINT "assessment_indicator_assessid_assessment_assessid_fk" FOREIGN KEY ("assessid") REFERENCES "public"."assessment"("assessid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_comment" ADD CONSTRAINT "report_comment_assessid_assessment_assessid_fk" FOREIGN KEY ("assessid") REFERENCES "public"."assessment"("assessid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_comment" ADD CONSTRAINT "report_comment_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessment_indicator_form_idx" ON "assessment_indicator" USING btree ("formcode","code","level");--> statement-breakpoint
CREATE INDEX "assessment_indicator_mood_idx" ON "assessment_indicator" USING btree ("mood","level");--> statement-breakpoint
CREATE INDEX "report_comment_report_idx" ON "report_comment" USING btree ("assessid","createdat");