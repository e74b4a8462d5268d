CREATE TABLE "report_export" (
	"exportid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"createdby" text NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"slot" integer NOT NULL,
	"lang" text NOT NULL,
	"reportids" jsonb NOT NULL,
	"scope" jsonb NOT NULL,
	"printed" integer DEFAULT 0 NOT NULL,
	"filename" text NOT NULL,
	"filekey" text,
	"jobid" text,
	"error" text,
	"lockeduntil" timestamp with time zone,
	"createdat" timestamp with time zone NOT NULL,
	"finishedat" timestamp with time zone,
	"expiresat" timestamp with time zone,
	CONSTRAINT "report_export_state_ck" CHECK ("report_export"."state" in ('queued', 'running', 'done', 'failed', 'cancelled')),
	CONSTRAINT "report_export_kind_ck" CHECK ("report_export"."kind" in ('inline', 'job'))
);
--> statement-breakpoint
ALTER TABLE "report_export" ADD CONSTRAINT "report_export_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_export_slot_uq" ON "report_export" USING btree ("musercode","slot") WHERE "report_export"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "report_export_owner_idx" ON "report_export" USING btree ("musercode","createdby","createdat");