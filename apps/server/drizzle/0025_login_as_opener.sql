ALTER TABLE "session" ADD COLUMN "openedby" text;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_openedby_session_tokenhash_fk" FOREIGN KEY ("openedby") REFERENCES "public"."session"("tokenhash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_opened_by_idx" ON "session" USING btree ("openedby");--> statement-breakpoint
-- Issue 27 §15: a login-as session ends with the session that opened it. Revoking a session revokes
-- the sessions opened from it, at any depth (each revocation fires this trigger again), in the same
-- transaction; the statement trigger of 0007 then announces it on xinli_auth, so no cached caller
-- outlives it. Deleting a session deletes them (openedby cascades).
CREATE OR REPLACE FUNCTION xinli_session_revoke_opened() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE session SET revokedat = NEW.revokedat WHERE openedby = NEW.tokenhash AND revokedat IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_revoke_opened AFTER UPDATE OF revokedat ON session FOR EACH ROW WHEN (OLD.revokedat IS NULL AND NEW.revokedat IS NOT NULL) EXECUTE FUNCTION xinli_session_revoke_opened();
--> statement-breakpoint
-- Login-as sessions opened before this migration record no opener: they end now.
UPDATE session SET revokedat = now() WHERE actor IS NOT NULL AND revokedat IS NULL;
--> statement-breakpoint
-- Issue 27 §2: setting another account's password is its own code (0003131), held by default by the
-- accounts that could do it before (user or institution management); the admin role's key does not give it.
INSERT INTO muser_permission (musercode, code) SELECT DISTINCT musercode, '0003131' FROM muser_permission WHERE code IN ('000313', '00021', '00022') ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Issue 27 §5: the warning settings are their own code (0004601), held by default by the accounts
-- that hold the warning page (00046); roles that list 00046 do not get it (the admin role does).
INSERT INTO muser_permission (musercode, code) SELECT DISTINCT musercode, '0004601' FROM muser_permission WHERE code = '00046' ON CONFLICT DO NOTHING;
