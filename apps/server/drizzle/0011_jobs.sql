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
CREATE UNIQUE INDEX "job_dedupkey_uq" ON "job" USING btree ("dedupkey");--> statement-breakpoint
CREATE INDEX "job_due_idx" ON "job" USING btree ("state","runat");--> statement-breakpoint
CREATE INDEX "job_kind_idx" ON "job" USING btree ("kind");