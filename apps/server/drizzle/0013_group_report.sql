CREATE TABLE "group_summary" (
	"summaryid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"taskid" text NOT NULL,
	"teamid" text DEFAULT '' NOT NULL,
	"state" text NOT NULL,
	"writer" text NOT NULL,
	"model" text NOT NULL,
	"lang" text NOT NULL,
	"sections" jsonb,
	"jobid" text,
	"error" text,
	"createdby" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"writtenat" timestamp with time zone,
	"approvedby" text,
	"approvedat" timestamp with time zone,
	CONSTRAINT "group_summary_state_ck" CHECK ("group_summary"."state" in ('queued', 'writing', 'failed', 'draft', 'approved')),
	CONSTRAINT "group_summary_writer_ck" CHECK ("group_summary"."writer" in ('rules', 'llm')),
	CONSTRAINT "group_summary_text_ck" CHECK ("group_summary"."state" not in ('draft', 'approved') or "group_summary"."sections" is not null)
);
--> statement-breakpoint
ALTER TABLE "group_summary" ADD CONSTRAINT "group_summary_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_summary" ADD CONSTRAINT "group_summary_taskid_task_taskid_fk" FOREIGN KEY ("taskid") REFERENCES "public"."task"("taskid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_summary_task_idx" ON "group_summary" USING btree ("taskid","teamid","createdat");--> statement-breakpoint
CREATE INDEX "group_summary_muser_idx" ON "group_summary" USING btree ("musercode");--> statement-breakpoint
CREATE UNIQUE INDEX "group_summary_active_uq" ON "group_summary" USING btree ("taskid","teamid") WHERE "group_summary"."state" in ('queued', 'writing');