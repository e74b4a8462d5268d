-- Issue 30 §3: phone and ID numbers and free-text answers are sealed at rest (kit/crypt). SQL cannot know the
-- data key, so existing rows are sealed by the start-up step (encryption.ts readyEncryption → sealPending)
-- in batches before the server answers; until then the blind-index columns of old rows are null.
CREATE TABLE "data_key" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updatedat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "cuser_idcard_idx";--> statement-breakpoint
ALTER TABLE "sysuser" ADD COLUMN "phonehash" text;--> statement-breakpoint
ALTER TABLE "cuser" ADD COLUMN "phonehash" text;--> statement-breakpoint
ALTER TABLE "cuser" ADD COLUMN "idcardhash" text;--> statement-breakpoint
CREATE INDEX "sysuser_phone_idx" ON "sysuser" USING btree ("musercode","phonehash");--> statement-breakpoint
CREATE INDEX "cuser_phone_idx" ON "cuser" USING btree ("musercode","phonehash");--> statement-breakpoint
CREATE UNIQUE INDEX "cuser_idcard_idx" ON "cuser" USING btree ("musercode","idcardhash") WHERE "cuser"."idcardhash" is not null and "cuser"."deletedat" is null;