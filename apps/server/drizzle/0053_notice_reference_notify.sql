-- Every respondent step reads its institution's consent notice (the version a consent must name,
-- and its text on the consent screen), so a server process keeps it too (kit/reference-reads.ts,
-- issue 33 §3), dropped on a change told on channel xinli_ref, as for 0048. A new version is an
-- insert, so inserts are told as well.
CREATE TRIGGER consent_notice_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON consent_notice FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
