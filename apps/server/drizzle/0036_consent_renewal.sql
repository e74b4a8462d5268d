ALTER TABLE "consent_record" DROP CONSTRAINT "consent_record_kind_check";--> statement-breakpoint
DROP INDEX "consent_record_notice_idx";--> statement-breakpoint
DROP INDEX "consent_record_withdrawal_idx";--> statement-breakpoint
ALTER TABLE "consent_record" ADD COLUMN "round" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "consent_record_renewal_idx" ON "consent_record" USING btree ("cusercode","round") WHERE "consent_record"."kind" = 'renewal';--> statement-breakpoint
CREATE UNIQUE INDEX "consent_record_notice_idx" ON "consent_record" USING btree ("cusercode","noticeversion","round") WHERE "consent_record"."kind" = 'notice';--> statement-breakpoint
CREATE UNIQUE INDEX "consent_record_withdrawal_idx" ON "consent_record" USING btree ("cusercode","round") WHERE "consent_record"."kind" = 'withdrawal';--> statement-breakpoint
ALTER TABLE "consent_record" ADD CONSTRAINT "consent_record_kind_check" CHECK ("consent_record"."kind" in ('notice', 'guardian', 'withdrawal', 'renewal'));--> statement-breakpoint
-- A record's round is the person's renewals so far (a renewal opens the next): set here, so no
-- insert path (phone, class sheet, staff) can put a record in a stale round.
CREATE OR REPLACE FUNCTION consent_record_round() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.round := (SELECT count(*) FROM consent_record WHERE cusercode = NEW.cusercode AND kind = 'renewal')
    + CASE WHEN NEW.kind = 'renewal' THEN 1 ELSE 0 END;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER consent_record_round BEFORE INSERT ON consent_record FOR EACH ROW EXECUTE FUNCTION consent_record_round();
