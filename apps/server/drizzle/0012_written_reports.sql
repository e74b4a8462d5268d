CREATE TABLE "written_report" (
	"writtenid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"cusercode" text NOT NULL,
	"state" text NOT NULL,
	"writer" text NOT NULL,
	"model" text NOT NULL,
	"lang" text NOT NULL,
	"sections" jsonb,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"jobid" text,
	"error" text,
	"createdby" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"writtenat" timestamp with time zone,
	"editedby" text,
	"editedat" timestamp with time zone,
	"approvedby" text,
	"approvedat" timestamp with time zone,
	CONSTRAINT "written_report_state_ck" CHECK ("written_report"."state" in ('queued', 'writing', 'failed', 'draft', 'approved')),
	CONSTRAINT "written_report_writer_ck" CHECK ("written_report"."writer" in ('rules', 'llm')),
	CONSTRAINT "written_report_text_ck" CHECK ("written_report"."state" not in ('draft', 'approved') or "written_report"."sections" is not null)
);
--> statement-breakpoint
ALTER TABLE "written_report" ADD CONSTRAINT "written_report_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "written_report" ADD CONSTRAINT "written_report_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "written_report_person_idx" ON "written_report" USING btree ("cusercode","createdat");--> statement-breakpoint
CREATE INDEX "written_report_muser_idx" ON "written_report" USING btree ("musercode");--> statement-breakpoint
CREATE UNIQUE INDEX "written_report_active_uq" ON "written_report" USING btree ("cusercode") WHERE "written_report"."state" in ('queued', 'writing');