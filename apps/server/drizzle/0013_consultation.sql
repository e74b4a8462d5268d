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
ALTER TABLE "registration" ADD CONSTRAINT "registration_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration" ADD CONSTRAINT "registration_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration" ADD CONSTRAINT "registration_formcode_form_formcode_fk" FOREIGN KEY ("formcode") REFERENCES "public"."form"("formcode") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registration_muser_idx" ON "registration" USING btree ("musercode","createdat");--> statement-breakpoint
CREATE INDEX "registration_person_idx" ON "registration" USING btree ("cusercode");--> statement-breakpoint
CREATE INDEX "registration_ip_idx" ON "registration" USING btree ("ip","createdat");