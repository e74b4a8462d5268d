CREATE TABLE "assess_code" (
	"assesscode" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"cusercode" text NOT NULL,
	"plancode" text,
	"stagecode" text DEFAULT '' NOT NULL,
	"authid" text,
	"formcodes" jsonb NOT NULL,
	"status" text DEFAULT 'issued' NOT NULL,
	"signature" text,
	"signedat" timestamp with time zone,
	"archivedat" timestamp with time zone,
	"createdby" text DEFAULT '' NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	"startedat" timestamp with time zone,
	"finishedat" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "assess_progress" (
	"assesscode" text NOT NULL,
	"formcode" text NOT NULL,
	"answers" jsonb NOT NULL,
	"updatedat" timestamp with time zone NOT NULL,
	CONSTRAINT "assess_progress_assesscode_formcode_pk" PRIMARY KEY("assesscode","formcode")
);
--> statement-breakpoint
CREATE TABLE "code_attempt" (
	"id" bigserial NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "respondent_session" (
	"tokenhash" text PRIMARY KEY NOT NULL,
	"assesscode" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"expiresat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "assessment_muser_idx";--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "cusercode" text;--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "assesscode" text;--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "plancode" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "stagecode" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "appid" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "mentalstate" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "level" integer;--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "colour" text;--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "warning" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment" ADD COLUMN "voided" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "assess_code" ADD CONSTRAINT "assess_code_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assess_code" ADD CONSTRAINT "assess_code_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assess_code" ADD CONSTRAINT "assess_code_plancode_plan_plancode_fk" FOREIGN KEY ("plancode") REFERENCES "public"."plan"("plancode") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assess_code" ADD CONSTRAINT "assess_code_authid_plan_authorize_authid_fk" FOREIGN KEY ("authid") REFERENCES "public"."plan_authorize"("authid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assess_progress" ADD CONSTRAINT "assess_progress_assesscode_assess_code_assesscode_fk" FOREIGN KEY ("assesscode") REFERENCES "public"."assess_code"("assesscode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "respondent_session" ADD CONSTRAINT "respondent_session_assesscode_assess_code_assesscode_fk" FOREIGN KEY ("assesscode") REFERENCES "public"."assess_code"("assesscode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assess_code_person_idx" ON "assess_code" USING btree ("cusercode");--> statement-breakpoint
CREATE INDEX "assess_code_muser_idx" ON "assess_code" USING btree ("musercode");--> statement-breakpoint
CREATE INDEX "assess_code_plan_idx" ON "assess_code" USING btree ("plancode");--> statement-breakpoint
CREATE INDEX "code_attempt_ip_idx" ON "code_attempt" USING btree ("ip","at");--> statement-breakpoint
CREATE INDEX "respondent_session_code_idx" ON "respondent_session" USING btree ("assesscode");--> statement-breakpoint
ALTER TABLE "assessment" ADD CONSTRAINT "assessment_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment" ADD CONSTRAINT "assessment_assesscode_assess_code_assesscode_fk" FOREIGN KEY ("assesscode") REFERENCES "public"."assess_code"("assesscode") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessment_person_idx" ON "assessment" USING btree ("cusercode","createdat");--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_code_form_idx" ON "assessment" USING btree ("assesscode","formcode");--> statement-breakpoint
CREATE INDEX "assessment_muser_idx" ON "assessment" USING btree ("musercode","createdat");