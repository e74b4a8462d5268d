-- stats_rebuild() after a bulk load (the bench generator, a restore, a migration from another
-- system) met raw tables the planner had never analysed: it guessed one row for `hidden = 0 AND
-- voided = 0` and planned the fill as nested loops that re-grouped every indicator row per report,
-- which at 3,000,000 reports ran for over 25 minutes without finishing. The function now analyses
-- the tables it reads first (a sample: seconds at that size, milliseconds when small), and the
-- fact table after filling it, before the counts are grouped from it.
CREATE OR REPLACE FUNCTION stats_rebuild() RETURNS void AS $$
DECLARE
  ix record;
  defs text[] := '{}';
  def text;
BEGIN
  ANALYZE assessment, assessment_indicator, cuser, task_person, team, assess_code;
  TRUNCATE stats_report, stats_count, stats_team, stats_person, stats_people;
  FOR ix IN SELECT x.indexrelid::regclass AS name, pg_get_indexdef(x.indexrelid) AS def FROM pg_index x
    WHERE x.indrelid = ANY ('{stats_report,stats_count,stats_team,stats_person,stats_people}'::regclass[]) AND NOT x.indisprimary
  LOOP
    EXECUTE format('DROP INDEX %s', ix.name);
    defs := defs || ix.def;
  END LOOP;
  PERFORM stats_refresh(NULL);
  ANALYZE stats_report;
  PERFORM stats_person_add(NULL, 1);
  PERFORM stats_code_add(NULL, 1);
  FOREACH def IN ARRAY defs LOOP EXECUTE def; END LOOP;
END
$$ LANGUAGE plpgsql SET work_mem = '256MB' SET maintenance_work_mem = '256MB';
