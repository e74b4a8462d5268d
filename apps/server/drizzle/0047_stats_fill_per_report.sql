-- A report's fact row looks up its own class and its own indicator rows (issue 33 §3). As 0042
-- wrote it, both were subqueries over their whole tables, joined to the reports after. The plan
-- PL/pgSQL keeps for it is generic: it takes `= ANY(ids)` for ten reports (a submission brings
-- one), and for ten reports one pass over the roster or the indicator table can look cheaper than
-- ten lookups: bench:task saw fills read all 2,200 roster rows in some of its runs and not in
-- others, as the figures of each analysis fell. Now the class is a subquery per report and the
-- counts a lateral aggregate per report (neither is merged into the outer join), each priced and
-- run as a lookup by the report's own code and id. Same rows as before: statistics.test.ts.
CREATE OR REPLACE FUNCTION stats_report_fill(ids text[]) RETURNS void AS $$
BEGIN
  INSERT INTO stats_report (assessid, cusercode, musercode, appid, stagecode, day, gender, teamid, abnormal,
    dep0, dep1, dep2, dep3, dep4, anx0, anx1, anx2, anx3, anx4)
  SELECT a.assessid, a.cusercode, a.musercode, a.appid, a.stagecode, stats_day(a.createdat), c.gender,
    (SELECT tp.teamid FROM task_person tp JOIN team t ON t.teamid = tp.teamid AND t.kind = 'class' WHERE tp.assesscode = a.assesscode),
    CASE WHEN a.mentalstate BETWEEN 2 AND 4 THEN 1 ELSE 0 END,
    m.dep0, m.dep1, m.dep2, m.dep3, m.dep4, m.anx0, m.anx1, m.anx2, m.anx3, m.anx4
  FROM assessment a
  JOIN cuser c ON c.cusercode = a.cusercode
  CROSS JOIN LATERAL (
    SELECT
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
    FROM assessment_indicator i WHERE i.assessid = a.assessid AND i.mood IS NOT NULL) m
  WHERE a.hidden = 0 AND a.voided = 0 AND c.deletedat IS NULL AND a.assessid = ANY(ids);
END
$$ LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan;
