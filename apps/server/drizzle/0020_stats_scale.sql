DROP INDEX "stats_count_muser_idx";--> statement-breakpoint
DROP INDEX "stats_team_muser_idx";--> statement-breakpoint
CREATE INDEX "stats_count_muser_idx" ON "stats_count" USING btree ("musercode","grain","period","appid","stagecode","gender","n","abnormal","dep0","dep1","dep2","dep3","dep4","anx0","anx1","anx2","anx3","anx4","persons","issued","started","finished");--> statement-breakpoint
CREATE INDEX "stats_team_muser_idx" ON "stats_team" USING btree ("musercode","grain","period","teamid","appid","stagecode","n","abnormal");--> statement-breakpoint
-- As in 0014, plus a fast path for persons when every report is added to an empty read model.
CREATE OR REPLACE FUNCTION stats_report_add(ids text[], sign int) RETURNS void AS $$
DECLARE
  cond text := CASE WHEN ids IS NULL THEN 'true' ELSE 'r.assessid = ANY($1)' END;
BEGIN
  EXECUTE format($q$
    INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, n, abnormal,
      dep0, dep1, dep2, dep3, dep4, anx0, anx1, anx2, anx3, anx4)
    SELECT g.grain, g.period, r.musercode, r.appid, r.stagecode, r.gender, $2 * count(*), $2 * sum(r.abnormal),
      $2 * sum(r.dep0), $2 * sum(r.dep1), $2 * sum(r.dep2), $2 * sum(r.dep3), $2 * sum(r.dep4),
      $2 * sum(r.anx0), $2 * sum(r.anx1), $2 * sum(r.anx2), $2 * sum(r.anx3), $2 * sum(r.anx4)
    FROM stats_report r CROSS JOIN LATERAL (VALUES ('d', r.day), ('m', date_trunc('month', r.day)::date)) g(grain, period)
    WHERE %s
    GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (grain, period, musercode, appid, stagecode, gender) DO UPDATE SET
      n = s.n + excluded.n, abnormal = s.abnormal + excluded.abnormal,
      dep0 = s.dep0 + excluded.dep0, dep1 = s.dep1 + excluded.dep1, dep2 = s.dep2 + excluded.dep2,
      dep3 = s.dep3 + excluded.dep3, dep4 = s.dep4 + excluded.dep4,
      anx0 = s.anx0 + excluded.anx0, anx1 = s.anx1 + excluded.anx1, anx2 = s.anx2 + excluded.anx2,
      anx3 = s.anx3 + excluded.anx3, anx4 = s.anx4 + excluded.anx4$q$, cond) USING ids, sign;
  EXECUTE format($q$
    INSERT INTO stats_team AS s (grain, period, teamid, musercode, appid, stagecode, n, abnormal)
    SELECT g.grain, g.period, r.teamid, r.musercode, r.appid, r.stagecode, $2 * count(*), $2 * sum(r.abnormal)
    FROM stats_report r CROSS JOIN LATERAL (VALUES ('d', r.day), ('m', date_trunc('month', r.day)::date)) g(grain, period)
    WHERE r.teamid IS NOT NULL AND %s
    GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (grain, period, teamid, appid, stagecode) DO UPDATE SET
      n = s.n + excluded.n, abnormal = s.abnormal + excluded.abnormal$q$, cond) USING ids, sign;
  -- Persons assessed: a person counts once per institution, app and stage ('*': any app, any
  -- stage) while their count is above zero; stats_people moves when a count crosses zero.
  IF ids IS NULL AND sign = 1 AND NOT EXISTS (SELECT 1 FROM stats_person) THEN
    -- Every row (stats_rebuild, into emptied tables): each person row is new and above zero, so
    -- plain inserts and a count give what the crossing below would, without tracking it per row.
    INSERT INTO stats_person (cusercode, musercode, appid, stagecode, n)
    SELECT r.cusercode, r.musercode, st.appid, st.stagecode, count(*)
    FROM stats_report r CROSS JOIN LATERAL (VALUES (r.appid, r.stagecode), (r.appid, '*'), ('*', r.stagecode), ('*', '*')) st(appid, stagecode)
    GROUP BY 1, 2, 3, 4;
    INSERT INTO stats_people AS q (musercode, appid, stagecode, persons)
    SELECT musercode, appid, stagecode, count(*) FROM stats_person GROUP BY 1, 2, 3
    ON CONFLICT (musercode, appid, stagecode) DO UPDATE SET persons = q.persons + excluded.persons;
    RETURN;
  END IF;
  EXECUTE format($q$
    WITH d AS (
      SELECT r.cusercode, r.musercode, st.appid, st.stagecode, ($2 * count(*))::int AS n
      FROM stats_report r CROSS JOIN LATERAL (VALUES (r.appid, r.stagecode), (r.appid, '*'), ('*', r.stagecode), ('*', '*')) st(appid, stagecode)
      WHERE %s
      GROUP BY 1, 2, 3, 4),
    up AS (
      INSERT INTO stats_person AS p (cusercode, musercode, appid, stagecode, n) SELECT * FROM d
      ON CONFLICT (cusercode, musercode, appid, stagecode) DO UPDATE SET n = p.n + excluded.n
      RETURNING p.cusercode, p.musercode, p.appid, p.stagecode, p.n)
    INSERT INTO stats_people AS q (musercode, appid, stagecode, persons)
    SELECT up.musercode, up.appid, up.stagecode,
      sum(CASE WHEN up.n > 0 AND up.n - d.n <= 0 THEN 1 WHEN up.n <= 0 AND up.n - d.n > 0 THEN -1 ELSE 0 END)
    FROM up JOIN d USING (cusercode, musercode, appid, stagecode)
    GROUP BY 1, 2, 3
    ON CONFLICT (musercode, appid, stagecode) DO UPDATE SET persons = q.persons + excluded.persons$q$, cond) USING ids, sign;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The fact rows of some reports (NULL: all) as one set-based statement: the class through a join
-- (task_person.assesscode is unique, so at most one) and the mood levels grouped per report,
-- restricted to the same reports. For a few reports the planner still looks each one up by index;
-- for a rebuild it hashes task_person and the indicators once instead of two lookups per report
-- (the correlated subqueries of 0014). Same rows, same aggregates.
CREATE OR REPLACE FUNCTION stats_refresh(ids text[]) RETURNS void AS $$
DECLARE
  cond text := CASE WHEN ids IS NULL THEN 'true' ELSE '%I.assessid = ANY($1)' END;
BEGIN
  IF ids IS NOT NULL AND cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM stats_report_add(ids, -1);
  IF ids IS NULL THEN DELETE FROM stats_report; ELSE DELETE FROM stats_report WHERE assessid = ANY(ids); END IF;
  EXECUTE format($q$
    INSERT INTO stats_report (assessid, cusercode, musercode, appid, stagecode, day, gender, teamid, abnormal,
      dep0, dep1, dep2, dep3, dep4, anx0, anx1, anx2, anx3, anx4)
    SELECT a.assessid, a.cusercode, a.musercode, a.appid, a.stagecode, stats_day(a.createdat), c.gender, k.teamid,
      CASE WHEN a.mentalstate BETWEEN 2 AND 4 THEN 1 ELSE 0 END,
      coalesce(m.dep0, 0), coalesce(m.dep1, 0), coalesce(m.dep2, 0), coalesce(m.dep3, 0), coalesce(m.dep4, 0),
      coalesce(m.anx0, 0), coalesce(m.anx1, 0), coalesce(m.anx2, 0), coalesce(m.anx3, 0), coalesce(m.anx4, 0)
    FROM assessment a
    JOIN cuser c ON c.cusercode = a.cusercode
    LEFT JOIN (SELECT tp.assesscode, tp.teamid FROM task_person tp JOIN team t ON t.teamid = tp.teamid AND t.kind = 'class') k
      ON k.assesscode = a.assesscode
    LEFT JOIN (
      SELECT i.assessid,
        count(*) FILTER (WHERE i.mood = 'depressed' AND i.level = 0)::int AS dep0,
        count(*) FILTER (WHERE i.mood = 'depressed' AND i.level = 1)::int AS dep1,
        count(*) FILTER (WHERE i.mood = 'depressed' AND i.level = 2)::int AS dep2,
        count(*) FILTER (WHERE i.mood = 'depressed' AND i.level = 3)::int AS dep3,
        count(*) FILTER (WHERE i.mood = 'depressed' AND i.level = 4)::int AS dep4,
        count(*) FILTER (WHERE i.mood = 'anxious' AND i.level = 0)::int AS anx0,
        count(*) FILTER (WHERE i.mood = 'anxious' AND i.level = 1)::int AS anx1,
        count(*) FILTER (WHERE i.mood = 'anxious' AND i.level = 2)::int AS anx2,
        count(*) FILTER (WHERE i.mood = 'anxious' AND i.level = 3)::int AS anx3,
        count(*) FILTER (WHERE i.mood = 'anxious' AND i.level = 4)::int AS anx4
      FROM assessment_indicator i WHERE i.mood IS NOT NULL AND %s GROUP BY i.assessid) m ON m.assessid = a.assessid
    WHERE a.hidden = 0 AND a.voided = 0 AND c.deletedat IS NULL AND %s$q$, format(cond, 'i'), format(cond, 'a')) USING ids;
  PERFORM stats_report_add(ids, 1);
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Everything again from the raw rows. The read model's secondary indexes are dropped while it
-- fills and built once at the end (a sort each, instead of millions of single insertions); the
-- primary keys stay (the ON CONFLICT of the *_add functions needs them). Memory for the hashes
-- and sorts of millions of rows, this function only.
CREATE OR REPLACE FUNCTION stats_rebuild() RETURNS void AS $$
DECLARE
  ix record;
  defs text[] := '{}';
  def text;
BEGIN
  TRUNCATE stats_report, stats_count, stats_team, stats_person, stats_people;
  FOR ix IN SELECT x.indexrelid::regclass AS name, pg_get_indexdef(x.indexrelid) AS def FROM pg_index x
    WHERE x.indrelid = ANY ('{stats_report,stats_count,stats_team,stats_person,stats_people}'::regclass[]) AND NOT x.indisprimary
  LOOP
    EXECUTE format('DROP INDEX %s', ix.name);
    defs := defs || ix.def;
  END LOOP;
  PERFORM stats_refresh(NULL);
  PERFORM stats_person_add(NULL, 1);
  PERFORM stats_code_add(NULL, 1);
  FOREACH def IN ARRAY defs LOOP EXECUTE def; END LOOP;
END
$$ LANGUAGE plpgsql SET work_mem = '256MB' SET maintenance_work_mem = '256MB';
