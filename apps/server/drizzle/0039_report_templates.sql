CREATE TABLE "plan_report_template" (
	"plancode" text PRIMARY KEY NOT NULL,
	"templateid" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_template" (
	"templateid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"name" text NOT NULL,
	"version" integer NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"updatedat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_template_use" (
	"assessid" text PRIMARY KEY NOT NULL,
	"versionid" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_template_version" (
	"versionid" text PRIMARY KEY NOT NULL,
	"templateid" text NOT NULL,
	"version" integer NOT NULL,
	"body" jsonb NOT NULL,
	"createdby" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plan_report_template" ADD CONSTRAINT "plan_report_template_plancode_plan_plancode_fk" FOREIGN KEY ("plancode") REFERENCES "public"."plan"("plancode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_report_template" ADD CONSTRAINT "plan_report_template_templateid_report_template_templateid_fk" FOREIGN KEY ("templateid") REFERENCES "public"."report_template"("templateid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_template" ADD CONSTRAINT "report_template_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_template_use" ADD CONSTRAINT "report_template_use_assessid_assessment_assessid_fk" FOREIGN KEY ("assessid") REFERENCES "public"."assessment"("assessid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_template_use" ADD CONSTRAINT "report_template_use_versionid_report_template_version_versionid_fk" FOREIGN KEY ("versionid") REFERENCES "public"."report_template_version"("versionid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_template_version" ADD CONSTRAINT "report_template_version_templateid_report_template_templateid_fk" FOREIGN KEY ("templateid") REFERENCES "public"."report_template"("templateid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_report_template_tpl_idx" ON "plan_report_template" USING btree ("templateid");--> statement-breakpoint
CREATE UNIQUE INDEX "report_template_name_uq" ON "report_template" USING btree ("musercode","name");--> statement-breakpoint
CREATE INDEX "report_template_use_version_idx" ON "report_template_use" USING btree ("versionid");--> statement-breakpoint
CREATE UNIQUE INDEX "report_template_version_uq" ON "report_template_version" USING btree ("templateid","version");
