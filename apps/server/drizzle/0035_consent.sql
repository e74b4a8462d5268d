CREATE TABLE "consent_notice" (
	"musercode" text NOT NULL,
	"version" integer NOT NULL,
	"zh" text NOT NULL,
	"en" text NOT NULL,
	"hash" text NOT NULL,
	"createdby" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	CONSTRAINT "consent_notice_musercode_version_pk" PRIMARY KEY("musercode","version"),
	CONSTRAINT "consent_notice_version_check" CHECK ("consent_notice"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "consent_record" (
	"consentid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"cusercode" text NOT NULL,
	"kind" text NOT NULL,
	"via" text NOT NULL,
	"noticeversion" integer,
	"noticehash" text,
	"assesscode" text,
	"guardianname" text,
	"relation" text,
	"signaturefileid" text,
	"teamid" text,
	"teamname" text,
	"reason" text,
	"recordedby" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "consent_record_kind_check" CHECK ("consent_record"."kind" in ('notice', 'guardian', 'withdrawal')),
	CONSTRAINT "consent_record_via_check" CHECK ("consent_record"."via" in ('phone', 'sheet', 'staff'))
);
--> statement-breakpoint
ALTER TABLE "consent_notice" ADD CONSTRAINT "consent_notice_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_record" ADD CONSTRAINT "consent_record_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_record" ADD CONSTRAINT "consent_record_cusercode_cuser_cusercode_fk" FOREIGN KEY ("cusercode") REFERENCES "public"."cuser"("cusercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_record" ADD CONSTRAINT "consent_record_signaturefileid_stored_file_fileid_fk" FOREIGN KEY ("signaturefileid") REFERENCES "public"."stored_file"("fileid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consent_record_notice_idx" ON "consent_record" USING btree ("cusercode","noticeversion") WHERE "consent_record"."kind" = 'notice';--> statement-breakpoint
CREATE UNIQUE INDEX "consent_record_withdrawal_idx" ON "consent_record" USING btree ("cusercode") WHERE "consent_record"."kind" = 'withdrawal';--> statement-breakpoint
CREATE INDEX "consent_record_person_idx" ON "consent_record" USING btree ("cusercode","at");--> statement-breakpoint
CREATE INDEX "consent_record_muser_idx" ON "consent_record" USING btree ("musercode","at");