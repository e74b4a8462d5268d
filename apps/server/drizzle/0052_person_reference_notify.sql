-- A respondent's person and class grade are read at every step (a person's brief for the name and
-- the consent's birth date; the grade when no birth date tells whether they are under 14), so a
-- server process keeps them too (kit/reference-reads.ts, issue 33 §3), dropped on a change told on
-- channel xinli_ref, as for 0048. Persons announce a change of the brief's columns, not inserts (a
-- QR entry or an import adds persons all day; only a person found is kept, so a new one is never
-- missed); archive and identity columns, which respondents and imports write, are not in the brief.
-- A class joined or left, or a class's kind, grade or deletion changed, moves a grade.
CREATE TRIGGER cuser_reference_changed AFTER UPDATE OF cusercode, musercode, appid, realname, gender, birthdate, deletedat, anonymisedat OR DELETE OR TRUNCATE ON cuser FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER team_member_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON team_member FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
--> statement-breakpoint
CREATE TRIGGER team_reference_changed AFTER UPDATE OF teamid, kind, grade, deletedat, createdat OR DELETE OR TRUNCATE ON team FOR EACH STATEMENT EXECUTE FUNCTION xinli_reference_changed();
