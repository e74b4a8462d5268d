-- Every change that can change what a session may do is announced on channel xinli_auth, so each
-- server process drops the callers it resolved (auth/caller-cache.ts) the moment the change commits:
-- a revoked or deleted session, an account or staff user changed or deleted (enabled, type, parent),
-- and any change of roles, role codes, role holders or account codes. NOTIFY is sent at commit and
-- not at all on rollback; one transaction's notifications arrive as one. A session's last-seen
-- writes (every 30 seconds per session) do not notify: the trigger on session watches revokedat only.
CREATE OR REPLACE FUNCTION xinli_auth_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('xinli_auth', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER session_auth_changed AFTER UPDATE OF revokedat OR DELETE OR TRUNCATE ON session FOR EACH STATEMENT EXECUTE FUNCTION xinli_auth_changed();
--> statement-breakpoint
CREATE TRIGGER muser_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON muser FOR EACH STATEMENT EXECUTE FUNCTION xinli_auth_changed();
--> statement-breakpoint
CREATE TRIGGER sysuser_auth_changed AFTER UPDATE OR DELETE OR TRUNCATE ON sysuser FOR EACH STATEMENT EXECUTE FUNCTION xinli_auth_changed();
--> statement-breakpoint
CREATE TRIGGER role_auth_changed AFTER UPDATE OR DELETE OR TRUNCATE ON role FOR EACH STATEMENT EXECUTE FUNCTION xinli_auth_changed();
--> statement-breakpoint
CREATE TRIGGER role_menu_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_menu FOR EACH STATEMENT EXECUTE FUNCTION xinli_auth_changed();
--> statement-breakpoint
CREATE TRIGGER sysuser_role_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sysuser_role FOR EACH STATEMENT EXECUTE FUNCTION xinli_auth_changed();
--> statement-breakpoint
CREATE TRIGGER muser_permission_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON muser_permission FOR EACH STATEMENT EXECUTE FUNCTION xinli_auth_changed();
