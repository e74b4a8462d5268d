CREATE TABLE "audit_chain" (
	"one" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"headseq" bigint DEFAULT 0 NOT NULL,
	"headhash" text DEFAULT '' NOT NULL,
	"anchorseq" bigint DEFAULT 0 NOT NULL,
	"anchorhash" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prevhash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_action_idx" ON "audit_log" USING btree ("action","at");
--> statement-breakpoint
-- Tamper evidence, retention and the chain's head (issue 30 §2). The chain head is one row,
-- locked FOR UPDATE by every insert: parallel inserts (any process, any code path) chain one
-- after another, each taking the next place and the hash of the row before it.
ALTER TABLE "audit_chain" ADD CONSTRAINT "audit_chain_one" CHECK ("one" = 1);--> statement-breakpoint
INSERT INTO "audit_chain" ("one") VALUES (1);--> statement-breakpoint
-- The one definition of an entry's hash: SHA-256 (hex) over the JSON array of its place, time
-- (UTC, microseconds), who, what, outcome, detail (jsonb's own canonical text), address, request
-- and the previous entry's hash. Verification (audit:verify, the page) recomputes it here.
CREATE OR REPLACE FUNCTION audit_hash(r audit_log, prev text) RETURNS text AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    r.seq, to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), r.musercode, r.userid, r.actor,
    r.action, r.result, r.detail, r.ip, r.requestid, prev)::text, 'UTF8')), 'hex')
$$ LANGUAGE sql IMMUTABLE;--> statement-breakpoint
-- Existing rows get their chain, in the order they were written.
DROP TRIGGER IF EXISTS "audit_log_no_update" ON "audit_log";--> statement-breakpoint
DO $$
DECLARE
  r audit_log;
  prev text := '';
  n bigint := 0;
BEGIN
  FOR r IN SELECT * FROM audit_log ORDER BY id LOOP
    n := n + 1;
    r.seq := n;
    UPDATE audit_log SET seq = n, prevhash = prev, hash = audit_hash(r, prev) WHERE id = r.id RETURNING hash INTO prev;
  END LOOP;
  UPDATE audit_chain SET headseq = n, headhash = prev WHERE one = 1;
END $$;--> statement-breakpoint
-- Each place once (after the backfill gave every existing row its own).
CREATE UNIQUE INDEX "audit_seq_unique" ON "audit_log" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_hash_unique" ON "audit_log" USING btree ("hash");--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_chain() RETURNS trigger AS $$
DECLARE
  head audit_chain;
BEGIN
  SELECT * INTO head FROM audit_chain WHERE one = 1 FOR UPDATE;
  NEW.seq := head.headseq + 1;
  NEW.prevhash := head.headhash;
  NEW.hash := audit_hash(NEW, head.headhash);
  UPDATE audit_chain SET headseq = NEW.seq, headhash = NEW.hash WHERE one = 1;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER "audit_log_chain" BEFORE INSERT ON "audit_log" FOR EACH ROW EXECUTE FUNCTION audit_log_chain();--> statement-breakpoint
-- No UPDATE ever. DELETE only inside the retention job's transaction (it sets xinli.audit_purge)
-- and never of a row younger than 180 days by the database's clock (CSL Art. 21: at least six
-- months); each removed row moves the chain's anchor, so what remains still verifies.
CREATE OR REPLACE FUNCTION audit_log_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF current_setting('xinli.audit_purge', true) IS DISTINCT FROM 'on' THEN
      RAISE EXCEPTION 'audit_log rows are removed only by the retention job';
    END IF;
    IF OLD.at > now() - interval '180 days' THEN
      RAISE EXCEPTION 'audit_log rows are kept at least 180 days';
    END IF;
    UPDATE audit_chain SET anchorseq = OLD.seq, anchorhash = OLD.hash WHERE one = 1 AND anchorseq < OLD.seq;
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER "audit_log_guard" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION audit_log_guard();--> statement-breakpoint
-- The chain head is changed by the triggers above only.
CREATE OR REPLACE FUNCTION audit_chain_guard() RETURNS trigger AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'audit_chain is changed by the audit_log triggers only';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER "audit_chain_guard" BEFORE UPDATE OR DELETE ON "audit_chain" FOR EACH ROW EXECUTE FUNCTION audit_chain_guard();
