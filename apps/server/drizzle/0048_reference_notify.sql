-- The rows every respondent step reads but that rarely change (issue 33 §3) are kept by each server
-- process (kit/reference-reads.ts) until a change of them is announced on channel xinli_ref: a task
-- (read by its code at every task sign-in), which task gave a personal code (a roster row's code
-- and task; not its PIN columns, which sign-ins change), an institution's entry settings, a plan's
-- name, a form's row, its versions and their bands (briefs, the current definition, the archive
-- form), an institution's scoring conventions and warning settings, and the norms (a form's
-- default norm judges reliable change). Accounts (names, the provider an archive form
-- may come from) announce on xinli_auth already (0007). Once per statement, at commit; nothing on
-- rollback.
CREATE OR REPLACE FUNCTION xinli_reference_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('xinli_ref', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER task_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON task FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER task_person_reference_changed AFTER INSERT OR UPDATE OF taskid, assesscode OR DELETE OR TRUNCATE ON task_person FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER muser_entry_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON muser_entry FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER plan_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON plan FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER form_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON form FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER form_version_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON form_version FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER quota_option_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON quota_option FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER form_convention_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON form_convention FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER warning_setting_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON warning_setting FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER norm_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON norm FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
