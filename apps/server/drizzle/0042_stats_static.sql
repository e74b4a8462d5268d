-- Statistics kept with less work per submission (issue 33 §3). With pg_stat_statements, a student
-- of bench:task cost PostgreSQL about 24 ms of CPU, half of it in these triggers:
-- * Their functions built each statement as text (EXECUTE format), so one function served a few
--   reports and the whole table, and PostgreSQL parsed and planned it on every call. The few-rows
--   path is now static SQL on generic plans (PL/pgSQL prepares it once per connection; left to
--   itself it would plan `= ANY(ids)` afresh each call, its estimate of one element beating the
--   generic one). The whole-table path (ids NULL: stats_rebuild) keeps the set-based statements
--   of 0020/0040, planned per call as a rebuild needs, under the names *_all.
-- * A new report has no fact row to take away: it is only added.
-- * New indicator rows only add to their reports' mood counts (nothing else of the read model
--   reads indicators): two statements where a refresh of the report ran eight.
-- * A code whose state alone moves (issued, started, finished) moves its count in one statement,
--   where it was taken away and added again.
-- Every sum row is written in the order of its key (ORDER BY): a sign-in moving its code's count
-- and a submission adding its report, of two persons on the same stripe, lock the same day and
-- month rows; written in different orders they deadlocked (2 of 1,000 students in one run).
-- Both paths write the same rows: statistics.test.ts compares the kept figures with the raw rows
-- and rebuilds after the triggers.
ALTER FUNCTION stats_report_add(text[], int) RENAME TO stats_report_add_all;--> statement-breakpoint
ALTER FUNCTION stats_refresh(text[]) RENAME TO stats_refresh_all;--> statement-breakpoint
ALTER FUNCTION stats_person_add(text[], int) RENAME TO stats_person_add_all;--> statement-breakpoint
ALTER FUNCTION stats_code_add(text[], int) RENAME TO stats_code_add_all;--> statement-breakpoint
-- The sums of some reports' fact rows, into the stripe of each report's person (as in 0040).
CREATE FUNCTION stats_report_add(ids text[], sign int) RETURNS void AS $$
BEGIN
  IF ids IS NULL THEN PERFORM stats_report_add_all(ids, sign); RETURN; END IF;
  INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, stripe, n, abnormal,
    dep0, dep1, dep2, dep3, dep4, anx0, anx1, anx2, anx3, anx4)
  SELECT g.grain, g.period, r.musercode, r.appid, r.stagecode, r.gender, stats_stripe(r.cusercode), sign * count(*), sign * sum(r.abnormal),
    sign * sum(r.dep0), sign * sum(r.dep1), sign * sum(r.dep2), sign * sum(r.dep3), sign * sum(r.dep4),
    sign * sum(r.anx0), sign * sum(r.anx1), sign * sum(r.anx2), sign * sum(r.anx3), sign * sum(r.anx4)
  FROM stats_report r CROSS JOIN LATERAL (VALUES ('d', r.day), ('m', date_trunc('month', r.day)::date)) g(grain, period)
  WHERE r.assessid = ANY(ids)
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET
    n = s.n + excluded.n, abnormal = s.abnormal + excluded.abnormal,
    dep0 = s.dep0 + excluded.dep0, dep1 = s.dep1 + excluded.dep1, dep2 = s.dep2 + excluded.dep2,
    dep3 = s.dep3 + excluded.dep3, dep4 = s.dep4 + excluded.dep4,
    anx0 = s.anx0 + excluded.anx0, anx1 = s.anx1 + excluded.anx1, anx2 = s.anx2 + excluded.anx2,
    anx3 = s.anx3 + excluded.anx3, anx4 = s.anx4 + excluded.anx4;
  INSERT INTO stats_team AS s (grain, period, teamid, musercode, appid, stagecode, stripe, n, abnormal)
  SELECT g.grain, g.period, r.teamid, r.musercode, r.appid, r.stagecode, stats_stripe(r.cusercode), sign * count(*), sign * sum(r.abnormal)
  FROM stats_report r CROSS JOIN LATERAL (VALUES ('d', r.day), ('m', date_trunc('month', r.day)::date)) g(grain, period)
  WHERE r.teamid IS NOT NULL AND r.assessid = ANY(ids)
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (grain, period, teamid, appid, stagecode, stripe) DO UPDATE SET
    n = s.n + excluded.n, abnormal = s.abnormal + excluded.abnormal;
  -- Persons assessed: stats_people moves when a person's count crosses zero.
  WITH d AS (
    SELECT r.cusercode, r.musercode, st.appid, st.stagecode, (sign * count(*))::int AS n
    FROM stats_report r CROSS JOIN LATERAL (VALUES (r.appid, r.stagecode), (r.appid, '*'), ('*', r.stagecode), ('*', '*')) st(appid, stagecode)
    WHERE r.assessid = ANY(ids)
    GROUP BY 1, 2, 3, 4),
  up AS (
    INSERT INTO stats_person AS p (cusercode, musercode, appid, stagecode, n) SELECT * FROM d ORDER BY 1, 2, 3, 4
    ON CONFLICT (cusercode, musercode, appid, stagecode) DO UPDATE SET n = p.n + excluded.n
    RETURNING p.cusercode, p.musercode, p.appid, p.stagecode, p.n)
  INSERT INTO stats_people AS q (musercode, appid, stagecode, stripe, persons)
  SELECT up.musercode, up.appid, up.stagecode, stats_stripe(up.cusercode),
    sum(CASE WHEN up.n > 0 AND up.n - d.n <= 0 THEN 1 WHEN up.n <= 0 AND up.n - d.n > 0 THEN -1 ELSE 0 END)
  FROM up JOIN d USING (cusercode, musercode, appid, stagecode)
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (musercode, appid, stagecode, stripe) DO UPDATE SET persons = q.persons + excluded.persons;
END
$$ LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
-- The fact rows of some reports (as stats_refresh of 0020 writes them).
CREATE FUNCTION stats_report_fill(ids text[]) RETURNS void AS $$
BEGIN
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
    FROM assessment_indicator i WHERE i.mood IS NOT NULL AND i.assessid = ANY(ids) GROUP BY i.assessid) m ON m.assessid = a.assessid
  WHERE a.hidden = 0 AND a.voided = 0 AND c.deletedat IS NULL AND a.assessid = ANY(ids);
END
$$ LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
-- Recomputes some reports' fact rows: what the old rows gave taken away, the new added.
CREATE FUNCTION stats_refresh(ids text[]) RETURNS void AS $$
BEGIN
  IF ids IS NULL THEN PERFORM stats_refresh_all(ids); RETURN; END IF;
  IF cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM stats_report_add(ids, -1);
  DELETE FROM stats_report WHERE assessid = ANY(ids);
  PERFORM stats_report_fill(ids);
  PERFORM stats_report_add(ids, 1);
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Persons registered (living), on the day they were registered, under stage '' (as in 0040).
CREATE FUNCTION stats_person_add(codes text[], sign int) RETURNS void AS $$
BEGIN
  IF codes IS NULL THEN PERFORM stats_person_add_all(codes, sign); RETURN; END IF;
  INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, stripe, persons)
  SELECT g.grain, g.period, c.musercode, c.appid, '', c.gender, stats_stripe(c.cusercode), sign * count(*)
  FROM cuser c CROSS JOIN LATERAL (VALUES ('d', stats_day(c.createdat)), ('m', date_trunc('month', stats_day(c.createdat))::date)) g(grain, period)
  WHERE c.deletedat IS NULL AND c.cusercode = ANY(codes)
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET persons = s.persons + excluded.persons;
END
$$ LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
-- One-time codes of living persons, on the day they were given, by their state now (as in 0040).
CREATE FUNCTION stats_code_add(codes text[], sign int) RETURNS void AS $$
BEGIN
  IF codes IS NULL THEN PERFORM stats_code_add_all(codes, sign); RETURN; END IF;
  INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, stripe, issued, started, finished)
  SELECT g.grain, g.period, k.musercode, c.appid, k.stagecode, c.gender, stats_stripe(c.cusercode),
    sign * count(*) FILTER (WHERE k.status = 'issued'), sign * count(*) FILTER (WHERE k.status = 'started'), sign * count(*) FILTER (WHERE k.status = 'finished')
  FROM assess_code k JOIN cuser c ON c.cusercode = k.cusercode
  CROSS JOIN LATERAL (VALUES ('d', stats_day(k.createdat)), ('m', date_trunc('month', stats_day(k.createdat))::date)) g(grain, period)
  WHERE c.deletedat IS NULL AND k.assesscode = ANY(codes)
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET
    issued = s.issued + excluded.issued, started = s.started + excluded.started, finished = s.finished + excluded.finished;
END
$$ LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
-- Reports: a new one is added (it has no fact row yet); changed or deleted, refreshed (as in 0014).
CREATE OR REPLACE FUNCTION stats_assessment_changed() RETURNS trigger AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := array(SELECT assessid FROM new_rows);
    PERFORM stats_report_fill(ids);
    PERFORM stats_report_add(ids, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM stats_refresh(array(SELECT assessid FROM old_rows));
  ELSE
    PERFORM stats_refresh(array(
      SELECT n.assessid FROM new_rows n JOIN old_rows o ON o.assessid = n.assessid
      WHERE (n.hidden, n.voided, n.mentalstate, n.createdat, n.musercode, n.appid, n.stagecode, n.cusercode, n.assesscode)
        IS DISTINCT FROM (o.hidden, o.voided, o.mentalstate, o.createdat, o.musercode, o.appid, o.stagecode, o.cusercode, o.assesscode)));
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Indicator rows: new ones add their mood levels to their reports' fact rows (a report not counted
-- has none) and to the institution's sums of those rows; changed or deleted, the reports are refreshed.
-- A report's indicators are stored by a statement after its own (reports/indicators.ts), so its
-- fact row was filled without them.
CREATE OR REPLACE FUNCTION stats_indicator_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH m AS (
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
      FROM new_rows i WHERE i.mood IS NOT NULL GROUP BY i.assessid),
    r AS (
      UPDATE stats_report r SET
        dep0 = r.dep0 + m.dep0, dep1 = r.dep1 + m.dep1, dep2 = r.dep2 + m.dep2, dep3 = r.dep3 + m.dep3, dep4 = r.dep4 + m.dep4,
        anx0 = r.anx0 + m.anx0, anx1 = r.anx1 + m.anx1, anx2 = r.anx2 + m.anx2, anx3 = r.anx3 + m.anx3, anx4 = r.anx4 + m.anx4
      FROM m WHERE r.assessid = m.assessid
      RETURNING r.musercode, r.appid, r.stagecode, r.gender, r.cusercode, r.day,
        m.dep0, m.dep1, m.dep2, m.dep3, m.dep4, m.anx0, m.anx1, m.anx2, m.anx3, m.anx4)
    INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, stripe,
      dep0, dep1, dep2, dep3, dep4, anx0, anx1, anx2, anx3, anx4)
    SELECT g.grain, g.period, r.musercode, r.appid, r.stagecode, r.gender, stats_stripe(r.cusercode),
      sum(r.dep0), sum(r.dep1), sum(r.dep2), sum(r.dep3), sum(r.dep4), sum(r.anx0), sum(r.anx1), sum(r.anx2), sum(r.anx3), sum(r.anx4)
    FROM r CROSS JOIN LATERAL (VALUES ('d', r.day), ('m', date_trunc('month', r.day)::date)) g(grain, period)
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET
      dep0 = s.dep0 + excluded.dep0, dep1 = s.dep1 + excluded.dep1, dep2 = s.dep2 + excluded.dep2,
      dep3 = s.dep3 + excluded.dep3, dep4 = s.dep4 + excluded.dep4,
      anx0 = s.anx0 + excluded.anx0, anx1 = s.anx1 + excluded.anx1, anx2 = s.anx2 + excluded.anx2,
      anx3 = s.anx3 + excluded.anx3, anx4 = s.anx4 + excluded.anx4;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM stats_refresh(array(SELECT DISTINCT assessid FROM old_rows WHERE mood IS NOT NULL));
  ELSE
    PERFORM stats_refresh(array(SELECT assessid FROM new_rows WHERE mood IS NOT NULL UNION SELECT assessid FROM old_rows WHERE mood IS NOT NULL));
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
-- A code whose state alone moved: one count down, the other up, on the day it was given (a
-- living person's code, as stats_code_add counts it). Any other change still takes the code away
-- before and adds it after.
CREATE FUNCTION stats_code_moved() RETURNS trigger AS $$
BEGIN
  INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, stripe, issued, started, finished)
  SELECT g.grain, g.period, NEW.musercode, c.appid, NEW.stagecode, c.gender, stats_stripe(c.cusercode),
    (CASE WHEN NEW.status = 'issued' THEN 1 ELSE 0 END) - (CASE WHEN OLD.status = 'issued' THEN 1 ELSE 0 END),
    (CASE WHEN NEW.status = 'started' THEN 1 ELSE 0 END) - (CASE WHEN OLD.status = 'started' THEN 1 ELSE 0 END),
    (CASE WHEN NEW.status = 'finished' THEN 1 ELSE 0 END) - (CASE WHEN OLD.status = 'finished' THEN 1 ELSE 0 END)
  FROM cuser c
  CROSS JOIN LATERAL (VALUES ('d', stats_day(NEW.createdat)), ('m', date_trunc('month', stats_day(NEW.createdat))::date)) g(grain, period)
  WHERE c.cusercode = NEW.cusercode AND c.deletedat IS NULL
  ORDER BY 1, 2
  ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET
    issued = s.issued + excluded.issued, started = s.started + excluded.started, finished = s.finished + excluded.finished;
  RETURN NULL;
END
$$ LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
DROP TRIGGER stats_code_before_update ON assess_code;--> statement-breakpoint
DROP TRIGGER stats_code_after_update ON assess_code;--> statement-breakpoint
CREATE TRIGGER stats_code_before_update BEFORE UPDATE ON assess_code FOR EACH ROW
  WHEN ((OLD.createdat, OLD.cusercode, OLD.musercode, OLD.stagecode) IS DISTINCT FROM (NEW.createdat, NEW.cusercode, NEW.musercode, NEW.stagecode))
  EXECUTE FUNCTION stats_code_before();--> statement-breakpoint
CREATE TRIGGER stats_code_after_update AFTER UPDATE ON assess_code FOR EACH ROW
  WHEN ((OLD.createdat, OLD.cusercode, OLD.musercode, OLD.stagecode) IS DISTINCT FROM (NEW.createdat, NEW.cusercode, NEW.musercode, NEW.stagecode))
  EXECUTE FUNCTION stats_code_after();--> statement-breakpoint
CREATE TRIGGER stats_code_moved AFTER UPDATE ON assess_code FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
    AND (OLD.createdat, OLD.cusercode, OLD.musercode, OLD.stagecode) IS NOT DISTINCT FROM (NEW.createdat, NEW.cusercode, NEW.musercode, NEW.stagecode))
  EXECUTE FUNCTION stats_code_moved();
