CREATE TABLE "assessment" (
	"assessid" text PRIMARY KEY NOT NULL,
	"formcode" text NOT NULL,
	"version" integer NOT NULL,
	"musercode" text NOT NULL,
	"answers" jsonb NOT NULL,
	"scores" jsonb NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form" (
	"formcode" text PRIMARY KEY NOT NULL,
	"musercode" text,
	"formname" text NOT NULL,
	"formtype" text NOT NULL,
	"appids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"licence" text DEFAULT '' NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"copiedfrom" text,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	"updatedat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_version" (
	"formcode" text NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_version_formcode_version_pk" PRIMARY KEY("formcode","version")
);
--> statement-breakpoint
CREATE TABLE "quota_option" (
	"optionid" text NOT NULL,
	"formcode" text NOT NULL,
	"version" integer NOT NULL,
	"quotacode" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"band" jsonb NOT NULL,
	CONSTRAINT "quota_option_optionid_version_pk" PRIMARY KEY("optionid","version")
);
--> statement-breakpoint
CREATE TABLE "exam_category" (
	"categoryid" text PRIMARY KEY NOT NULL,
	"appid" text NOT NULL,
	"categoryname" text NOT NULL,
	"categorynameen" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_stage" (
	"stagecode" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"appid" text NOT NULL,
	"categoryid" text NOT NULL,
	"stagename" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	"updatedat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_stage_form" (
	"stagecode" text NOT NULL,
	"formcode" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "exam_stage_form_stagecode_formcode_pk" PRIMARY KEY("stagecode","formcode")
);
--> statement-breakpoint
CREATE TABLE "muser_stage" (
	"musercode" text NOT NULL,
	"stagecode" text NOT NULL,
	CONSTRAINT "muser_stage_musercode_stagecode_pk" PRIMARY KEY("musercode","stagecode")
);
--> statement-breakpoint
CREATE TABLE "plan" (
	"plancode" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"planname" text NOT NULL,
	"appid" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"iscommon" integer DEFAULT 0 NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	"updatedat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_authorize" (
	"authid" text PRIMARY KEY NOT NULL,
	"plancode" text NOT NULL,
	"musercode" text NOT NULL,
	"count" integer NOT NULL,
	"usedcount" integer DEFAULT 0 NOT NULL,
	"startdate" date NOT NULL,
	"enddate" date NOT NULL,
	"grantedby" text NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_form" (
	"plancode" text NOT NULL,
	"stagecode" text DEFAULT '' NOT NULL,
	"formcode" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "plan_form_plancode_stagecode_formcode_pk" PRIMARY KEY("plancode","stagecode","formcode")
);
--> statement-breakpoint
CREATE TABLE "plan_stage" (
	"plancode" text NOT NULL,
	"stagecode" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "plan_stage_plancode_stagecode_pk" PRIMARY KEY("plancode","stagecode")
);
--> statement-breakpoint
ALTER TABLE "assessment" ADD CONSTRAINT "assessment_formcode_form_formcode_fk" FOREIGN KEY ("formcode") REFERENCES "public"."form"("formcode") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment" ADD CONSTRAINT "assessment_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form" ADD CONSTRAINT "form_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_version" ADD CONSTRAINT "form_version_formcode_form_formcode_fk" FOREIGN KEY ("formcode") REFERENCES "public"."form"("formcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_category" ADD CONSTRAINT "exam_category_appid_app_appid_fk" FOREIGN KEY ("appid") REFERENCES "public"."app"("appid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_stage" ADD CONSTRAINT "exam_stage_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_stage" ADD CONSTRAINT "exam_stage_appid_app_appid_fk" FOREIGN KEY ("appid") REFERENCES "public"."app"("appid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_stage" ADD CONSTRAINT "exam_stage_categoryid_exam_category_categoryid_fk" FOREIGN KEY ("categoryid") REFERENCES "public"."exam_category"("categoryid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_stage_form" ADD CONSTRAINT "exam_stage_form_stagecode_exam_stage_stagecode_fk" FOREIGN KEY ("stagecode") REFERENCES "public"."exam_stage"("stagecode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_stage_form" ADD CONSTRAINT "exam_stage_form_formcode_form_formcode_fk" FOREIGN KEY ("formcode") REFERENCES "public"."form"("formcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "muser_stage" ADD CONSTRAINT "muser_stage_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "muser_stage" ADD CONSTRAINT "muser_stage_stagecode_exam_stage_stagecode_fk" FOREIGN KEY ("stagecode") REFERENCES "public"."exam_stage"("stagecode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan" ADD CONSTRAINT "plan_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan" ADD CONSTRAINT "plan_appid_app_appid_fk" FOREIGN KEY ("appid") REFERENCES "public"."app"("appid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_authorize" ADD CONSTRAINT "plan_authorize_plancode_plan_plancode_fk" FOREIGN KEY ("plancode") REFERENCES "public"."plan"("plancode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_authorize" ADD CONSTRAINT "plan_authorize_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_form" ADD CONSTRAINT "plan_form_plancode_plan_plancode_fk" FOREIGN KEY ("plancode") REFERENCES "public"."plan"("plancode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_form" ADD CONSTRAINT "plan_form_formcode_form_formcode_fk" FOREIGN KEY ("formcode") REFERENCES "public"."form"("formcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_stage" ADD CONSTRAINT "plan_stage_plancode_plan_plancode_fk" FOREIGN KEY ("plancode") REFERENCES "public"."plan"("plancode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_stage" ADD CONSTRAINT "plan_stage_stagecode_exam_stage_stagecode_fk" FOREIGN KEY ("stagecode") REFERENCES "public"."exam_stage"("stagecode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessment_form_idx" ON "assessment" USING btree ("formcode","version");--> statement-breakpoint
CREATE INDEX "assessment_muser_idx" ON "assessment" USING btree ("musercode");--> statement-breakpoint
CREATE INDEX "form_muser_idx" ON "form" USING btree ("musercode");--> statement-breakpoint
CREATE INDEX "quota_option_form_idx" ON "quota_option" USING btree ("formcode","version");--> statement-breakpoint
CREATE INDEX "exam_stage_muser_idx" ON "exam_stage" USING btree ("musercode");--> statement-breakpoint
CREATE INDEX "plan_muser_idx" ON "plan" USING btree ("musercode");--> statement-breakpoint
CREATE INDEX "plan_authorize_plan_idx" ON "plan_authorize" USING btree ("plancode");--> statement-breakpoint
CREATE INDEX "plan_authorize_muser_idx" ON "plan_authorize" USING btree ("musercode");