CREATE TABLE "task" (
	"taskid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"taskname" text NOT NULL,
	"plancode" text NOT NULL,
	"taskcode" text NOT NULL,
	"startat" timestamp with time zone NOT NULL,
	"endat" timestamp with time zone NOT NULL,
	"createdby" text DEFAULT '' NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_window_check" CHECK ("task"."startat" < "task"."endat")
);
--> statement-breakpoint
CREATE TABLE "task_person" (
	"taskid" text NOT NULL,
	"cusercode" text NOT NULL,
	"teamid" text NOT NULL,
	"studentno" text NOT NULL,
	"assesscode" text NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_person_taskid_cusercode_pk" PRIMARY KEY("taskid","cusercode")
);
--> statement-breakpoint
CREATE TABLE "task_team" (
	"taskid" text NOT NULL,
	"teamid" text NOT NULL,
	"reporthidden" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "task_team_taskid_teamid_pk" PRIMARY KEY("taskid","teamid")
);
--> statement-breakpoint
CREATE TABLE "team" (
	"teamid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"kind" text NOT NULL,
	"appid" text NOT NULL,
	"school" text DEFAULT '' NOT NULL,
	"year" text DEFAULT '' NOT NULL,
	"term" text DEFAULT '' NOT NULL,
	"grade" text DEFAULT '' NOT NULL,
	"classname" text DEFAULT '' NOT NULL,
	"deptname" text DEFAULT '' NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	"deletedat" timestamp with time zone,
	CONSTRAINT "team_kind_check" CHECK ("team"."kind" in ('class', 'dept'))
);
--> statement-breakpoint
CREATE TABLE "team_member" (
	"teamid" text NOT NULL,
	"cusercode" text NOT NULL,
	"studentno" text NOT NULL,
	"joinedat" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_member_teamid_cusercode_pk" PRIMARY KEY("teamid","cusercode")
);
--> statement-breakpoint
ALTER TABLE "task" ADD CONSTRAINT "task_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task" ADD CONSTRAINT "task_plancode_plan_plancode_fk" FOREIGN KEY ("plancode") REFERENCES "public"."plan"("plancode") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_person" ADD CONSTRAINT "task_person_taskid_task_taskid_fk" FOREIGN KEY ("taskid") REFERENCES "public"."task"("taskid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_person" ADD CONSTRAINT "task_person_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_person" ADD CONSTRAINT "task_person_teamid_team_teamid_fk" FOREIGN KEY ("teamid") REFERENCES "public"."team"("teamid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_person" ADD CONSTRAINT "task_person_assesscode_assess_code_assesscode_fk" FOREIGN KEY ("assesscode") REFERENCES "public"."assess_code"("assesscode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_team" ADD CONSTRAINT "task_team_taskid_task_taskid_fk" FOREIGN KEY ("taskid") REFERENCES "public"."task"("taskid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_team" ADD CONSTRAINT "task_team_teamid_team_teamid_fk" FOREIGN KEY ("teamid") REFERENCES "public"."team"("teamid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team" ADD CONSTRAINT "team_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team" ADD CONSTRAINT "team_appid_app_appid_fk" FOREIGN KEY ("appid") REFERENCES "public"."app"("appid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_member" ADD CONSTRAINT "team_member_teamid_team_teamid_fk" FOREIGN KEY ("teamid") REFERENCES "public"."team"("teamid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_member" ADD CONSTRAINT "team_member_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "task_code_idx" ON "task" USING btree ("taskcode");--> statement-breakpoint
CREATE INDEX "task_muser_idx" ON "task" USING btree ("musercode","startat");--> statement-breakpoint
CREATE UNIQUE INDEX "task_person_code_idx" ON "task_person" USING btree ("assesscode");--> statement-breakpoint
CREATE INDEX "task_person_team_idx" ON "task_person" USING btree ("taskid","teamid","studentno");--> statement-breakpoint
CREATE INDEX "task_team_team_idx" ON "task_team" USING btree ("teamid");--> statement-breakpoint
CREATE UNIQUE INDEX "team_unique_idx" ON "team" USING btree ("musercode","kind","school","year","term","grade","classname","deptname") WHERE "team"."deletedat" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "team_member_no_idx" ON "team_member" USING btree ("teamid","studentno");--> statement-breakpoint
CREATE INDEX "team_member_person_idx" ON "team_member" USING btree ("cusercode");