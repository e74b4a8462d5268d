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
CREATE TABLE "registration" (
	"regid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"cusercode" text,
	"realname" text DEFAULT '' NOT NULL,
	"phone" text,
	"formcode" text NOT NULL,
	"version" integer NOT NULL,
	"answers" jsonb NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"source" text NOT NULL,
	"createdby" text DEFAULT '' NOT NULL,
	"caseid" text DEFAULT '' NOT NULL,
	"ip" text,
	"createdat" timestamp with time zone NOT NULL,
	"updatedat" timestamp with time zone NOT NULL,
	CONSTRAINT "registration_state_check" CHECK ("registration"."state" in ('new', 'inprogress', 'case', 'closed')),
	CONSTRAINT "registration_source_check" CHECK ("registration"."source" in ('respondent', 'staff')),
	CONSTRAINT "registration_case_check" CHECK (("registration"."state" = 'case') = ("registration"."caseid" <> ''))
);
--> statement-breakpoint
CREATE TABLE "case_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"caseid" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"by" text NOT NULL,
	"byname" text DEFAULT '' NOT NULL,
	"fromstate" text DEFAULT '' NOT NULL,
	"tostate" text NOT NULL,
	"what" text NOT NULL,
	"note" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follow_up" (
	"followid" text PRIMARY KEY NOT NULL,
	"caseid" text NOT NULL,
	"musercode" text NOT NULL,
	"cusercode" text NOT NULL,
	"followdate" date NOT NULL,
	"way" text NOT NULL,
	"by" text NOT NULL,
	"byname" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"risk" integer NOT NULL,
	"nextdate" text DEFAULT '' NOT NULL,
	"createdat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warn_case" (
	"caseid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"cusercode" text NOT NULL,
	"appid" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"level" text NOT NULL,
	"assignee" text DEFAULT '' NOT NULL,
	"outcome" text,
	"note" text DEFAULT '' NOT NULL,
	"openedat" timestamp with time zone NOT NULL,
	"lastwarningat" timestamp with time zone NOT NULL,
	"acknowledgedat" timestamp with time zone,
	"escalatedue" timestamp with time zone,
	"escalatedat" timestamp with time zone,
	"closedat" timestamp with time zone,
	"nextdate" text DEFAULT '' NOT NULL,
	"lastfollowid" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warn_notice" (
	"noticeid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"caseid" text NOT NULL,
	"warningid" text,
	"kind" text NOT NULL,
	"level" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warn_notice_read" (
	"noticeid" text NOT NULL,
	"reader" text NOT NULL,
	"readat" timestamp with time zone NOT NULL,
	CONSTRAINT "warn_notice_read_noticeid_reader_pk" PRIMARY KEY("noticeid","reader")
);
--> statement-breakpoint
CREATE TABLE "warning" (
	"warningid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"cusercode" text NOT NULL,
	"caseid" text NOT NULL,
	"assessid" text,
	"assesscode" text,
	"kind" text NOT NULL,
	"level" text NOT NULL,
	"reason" text NOT NULL,
	"params" jsonb NOT NULL,
	"formcode" text DEFAULT '' NOT NULL,
	"stagecode" text DEFAULT '' NOT NULL,
	"createdby" text DEFAULT '' NOT NULL,
	"createdat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warning_setting" (
	"musercode" text PRIMARY KEY NOT NULL,
	"worsenpoints" integer NOT NULL,
	"worsenlevels" integer NOT NULL,
	"misseddays" integer NOT NULL,
	"escalateminutes" integer NOT NULL,
	"updatedat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"maxattempts" integer DEFAULT 3 NOT NULL,
	"runat" timestamp with time zone NOT NULL,
	"lockedby" text,
	"lockeduntil" timestamp with time zone,
	"lasterror" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"dedupkey" text,
	"createdat" timestamp with time zone NOT NULL,
	"startedat" timestamp with time zone,
	"finishedat" timestamp with time zone,
	CONSTRAINT "job_state_ck" CHECK ("job"."state" in ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
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
ALTER TABLE "assessment" ADD COLUMN "hidden" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment_indicator" ADD CONSTRAINT "assessment_indicator_assessid_assessment_assessid_fk" FOREIGN KEY ("assessid") REFERENCES "public"."assessment"("assessid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_comment" ADD CONSTRAINT "report_comment_assessid_assessment_assessid_fk" FOREIGN KEY ("assessid") REFERENCES "public"."assessment"("assessid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_comment" ADD CONSTRAINT "report_comment_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration" ADD CONSTRAINT "registration_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration" ADD CONSTRAINT "registration_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration" ADD CONSTRAINT "registration_formcode_form_formcode_fk" FOREIGN KEY ("formcode") REFERENCES "public"."form"("formcode") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_event" ADD CONSTRAINT "case_event_caseid_warn_case_caseid_fk" FOREIGN KEY ("caseid") REFERENCES "public"."warn_case"("caseid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up" ADD CONSTRAINT "follow_up_caseid_warn_case_caseid_fk" FOREIGN KEY ("caseid") REFERENCES "public"."warn_case"("caseid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up" ADD CONSTRAINT "follow_up_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up" ADD CONSTRAINT "follow_up_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warn_case" ADD CONSTRAINT "warn_case_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warn_case" ADD CONSTRAINT "warn_case_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warn_notice" ADD CONSTRAINT "warn_notice_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warn_notice" ADD CONSTRAINT "warn_notice_caseid_warn_case_caseid_fk" FOREIGN KEY ("caseid") REFERENCES "public"."warn_case"("caseid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warn_notice" ADD CONSTRAINT "warn_notice_warningid_warning_warningid_fk" FOREIGN KEY ("warningid") REFERENCES "public"."warning"("warningid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warn_notice_read" ADD CONSTRAINT "warn_notice_read_noticeid_warn_notice_noticeid_fk" FOREIGN KEY ("noticeid") REFERENCES "public"."warn_notice"("noticeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning" ADD CONSTRAINT "warning_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning" ADD CONSTRAINT "warning_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning" ADD CONSTRAINT "warning_caseid_warn_case_caseid_fk" FOREIGN KEY ("caseid") REFERENCES "public"."warn_case"("caseid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning" ADD CONSTRAINT "warning_assessid_assessment_assessid_fk" FOREIGN KEY ("assessid") REFERENCES "public"."assessment"("assessid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning" ADD CONSTRAINT "warning_assesscode_assess_code_assesscode_fk" FOREIGN KEY ("assesscode") REFERENCES "public"."assess_code"("assesscode") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_setting" ADD CONSTRAINT "warning_setting_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "written_report" ADD CONSTRAINT "written_report_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "written_report" ADD CONSTRAINT "written_report_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessment_indicator_form_idx" ON "assessment_indicator" USING btree ("formcode","code","level");--> statement-breakpoint
CREATE INDEX "assessment_indicator_mood_idx" ON "assessment_indicator" USING btree ("mood","level");--> statement-breakpoint
CREATE INDEX "report_comment_report_idx" ON "report_comment" USING btree ("assessid","createdat");--> statement-breakpoint
CREATE INDEX "registration_muser_idx" ON "registration" USING btree ("musercode","createdat");--> statement-breakpoint
CREATE INDEX "registration_person_idx" ON "registration" USING btree ("cusercode");--> statement-breakpoint
CREATE INDEX "registration_ip_idx" ON "registration" USING btree ("ip","createdat");--> statement-breakpoint
CREATE INDEX "case_event_case_idx" ON "case_event" USING btree ("caseid","at");--> statement-breakpoint
CREATE INDEX "follow_up_case_idx" ON "follow_up" USING btree ("caseid","createdat");--> statement-breakpoint
CREATE INDEX "follow_up_muser_idx" ON "follow_up" USING btree ("musercode","followdate");--> statement-breakpoint
CREATE UNIQUE INDEX "warn_case_one_open_idx" ON "warn_case" USING btree ("cusercode") WHERE state <> 'closed';--> statement-breakpoint
CREATE INDEX "warn_case_muser_idx" ON "warn_case" USING btree ("musercode","state");--> statement-breakpoint
CREATE INDEX "warn_case_escalate_idx" ON "warn_case" USING btree ("escalatedue");--> statement-breakpoint
CREATE UNIQUE INDEX "warn_notice_warning_idx" ON "warn_notice" USING btree ("warningid");--> statement-breakpoint
CREATE UNIQUE INDEX "warn_notice_escalated_idx" ON "warn_notice" USING btree ("caseid") WHERE kind = 'escalated';--> statement-breakpoint
CREATE INDEX "warn_notice_muser_idx" ON "warn_notice" USING btree ("musercode","createdat");--> statement-breakpoint
CREATE INDEX "warning_case_idx" ON "warning" USING btree ("caseid");--> statement-breakpoint
CREATE INDEX "warning_muser_idx" ON "warning" USING btree ("musercode","createdat");--> statement-breakpoint
CREATE INDEX "warning_report_idx" ON "warning" USING btree ("assessid");--> statement-breakpoint
CREATE UNIQUE INDEX "warning_missed_once_idx" ON "warning" USING btree ("assesscode") WHERE kind = 'missed';--> statement-breakpoint
CREATE UNIQUE INDEX "job_dedupkey_uq" ON "job" USING btree ("dedupkey");--> statement-breakpoint
CREATE INDEX "job_due_idx" ON "job" USING btree ("state","runat");--> statement-breakpoint
CREATE INDEX "job_kind_idx" ON "job" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "written_report_person_idx" ON "written_report" USING btree ("cusercode","createdat");--> statement-breakpoint
CREATE INDEX "written_report_muser_idx" ON "written_report" USING btree ("musercode");--> statement-breakpoint
CREATE UNIQUE INDEX "written_report_active_uq" ON "written_report" USING btree ("cusercode") WHERE "written_report"."state" in ('queued', 'writing');