-- Statistics kept by static statements (issue 33 §3). The read model's functions built each
-- statement as text (EXECUTE format) so the same function could serve a few reports and the whole
-- table; PostgreSQL parses and plans such a statement on every call. A submission runs them
-- twice (the report's insert, then its indicators'), about 16 planned statements of its own
-- transaction: half of the 11 ms of database work the two inserts cost. Below, the few-rows
-- path of each function is static SQL, which PL/pgSQL prepares once per connection and then
-- runs on a cached plan; the whole-table path (ids NULL: stats_rebuild) keeps the set-based
-- statements of 0020/0040, planned per call as a rebuild needs, under the names *_all. Both paths
-- write the same rows (statistics.test.ts rebuilds after the triggers and compares).
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
  ON CONFLICT (grain, period, teamid, appid, stagecode, stripe) DO UPDATE SET
    n = s.n + excluded.n, abnormal = s.abnormal + excluded.abnormal;
  -- Persons assessed: stats_people moves when a person's count crosses zero.
  WITH d AS (
    SELECT r.cusercode, r.musercode, st.appid, st.stagecode, (sign * count(*))::int AS n
    FROM stats_report r CROSS JOIN LATERAL (VALUES (r.appid, r.stagecode), (r.appid, '*'), ('*', r.stagecode), ('*', '*')) st(appid, stagecode)
    WHERE r.assessid = ANY(ids)
    GROUP BY 1, 2, 3, 4),
  up AS (
    INSERT INTO stats_person AS p (cusercode, musercode, appid, stagecode, n) SELECT * FROM d
    ON CONFLICT (cusercode, musercode, appid, stagecode) DO UPDATE SET n = p.n + excluded.n
    RETURNING p.cusercode, p.musercode, p.appid, p.stagecode, p.n)
  INSERT INTO stats_people AS q (musercode, appid, stagecode, stripe, persons)
  SELECT up.musercode, up.appid, up.stagecode, stats_stripe(up.cusercode),
    sum(CASE WHEN up.n > 0 AND up.n - d.n <= 0 THEN 1 WHEN up.n <= 0 AND up.n - d.n > 0 THEN -1 ELSE 0 END)
  FROM up JOIN d USING (cusercode, musercode, appid, stagecode)
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (musercode, appid, stagecode, stripe) DO UPDATE SET persons = q.persons + excluded.persons;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Recomputes some reports' fact rows (as in 0020): what the old rows gave taken away, the new added.
CREATE FUNCTION stats_refresh(ids text[]) RETURNS void AS $$
BEGIN
  IF ids IS NULL THEN PERFORM stats_refresh_all(ids); RETURN; END IF;
  IF cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM stats_report_add(ids, -1);
  DELETE FROM stats_report WHERE assessid = ANY(ids);
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
  ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET persons = s.persons + excluded.persons;
END
$$ LANGUAGE plpgsql;
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
  ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET
    issued = s.issued + excluded.issued, started = s.started + excluded.started, finished = s.finished + excluded.finished;
END
$$ LANGUAGE plpgsql;
