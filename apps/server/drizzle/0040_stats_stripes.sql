-- Striped sums (issue 33 §3). Every submission of a class added to the same daily and monthly row
-- of its institution (and class, and the institution's persons), so parallel submissions queued
-- on those row locks until each transaction committed. Each sum row is now one of 32 stripes of
-- its key; a person's reports, codes and registration always add to the stripe of their cusercode
-- (so one person's transaction locks one stripe of each key, parallel persons mostly others, and
-- two single-person transactions cannot lock two stripes in opposite orders). Taking a report
-- away subtracts from the stripe it was added to, and the rebuild writes exactly the rows the
-- triggers keep. Every read already sums its rows (statistics/query.ts).
ALTER TABLE "stats_count" ADD COLUMN "stripe" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_people" ADD COLUMN "stripe" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_team" ADD COLUMN "stripe" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_count" DROP CONSTRAINT "stats_count_grain_period_musercode_appid_stagecode_gender_pk";--> statement-breakpoint
ALTER TABLE "stats_people" DROP CONSTRAINT "stats_people_musercode_appid_stagecode_pk";--> statement-breakpoint
ALTER TABLE "stats_team" DROP CONSTRAINT "stats_team_grain_period_teamid_appid_stagecode_pk";--> statement-breakpoint
ALTER TABLE "stats_count" ADD CONSTRAINT "stats_count_grain_period_musercode_appid_stagecode_gender_stripe_pk" PRIMARY KEY("grain","period","musercode","appid","stagecode","gender","stripe");--> statement-breakpoint
ALTER TABLE "stats_people" ADD CONSTRAINT "stats_people_musercode_appid_stagecode_stripe_pk" PRIMARY KEY("musercode","appid","stagecode","stripe");--> statement-breakpoint
ALTER TABLE "stats_team" ADD CONSTRAINT "stats_team_grain_period_teamid_appid_stagecode_stripe_pk" PRIMARY KEY("grain","period","teamid","appid","stagecode","stripe");--> statement-breakpoint
-- The stripe of a person: 0-31, the same on every server and version of PostgreSQL we run.
CREATE OR REPLACE FUNCTION stats_stripe(cusercode text) RETURNS int AS $$
  SELECT hashtext(cusercode) & 31
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- As in 0020, each sum into the stripe of the report's person.
CREATE OR REPLACE FUNCTION stats_report_add(ids text[], sign int) RETURNS void AS $$
DECLARE
  cond text := CASE WHEN ids IS NULL THEN 'true' ELSE 'r.assessid = ANY($1)' END;
BEGIN
  EXECUTE format($q$
    INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, stripe, n, abnormal,
      dep0, dep1, dep2, dep3, dep4, anx0, anx1, anx2, anx3, anx4)
    SELECT g.grain, g.period, r.musercode, r.appid, r.stagecode, r.gender, stats_stripe(r.cusercode), $2 * count(*), $2 * sum(r.abnormal),
      $2 * sum(r.dep0), $2 * sum(r.dep1), $2 * sum(r.dep2), $2 * sum(r.dep3), $2 * sum(r.dep4),
      $2 * sum(r.anx0), $2 * sum(r.anx1), $2 * sum(r.anx2), $2 * sum(r.anx3), $2 * sum(r.anx4)
    FROM stats_report r CROSS JOIN LATERAL (VALUES ('d', r.day), ('m', date_trunc('month', r.day)::date)) g(grain, period)
    WHERE %s
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET
      n = s.n + excluded.n, abnormal = s.abnormal + excluded.abnormal,
      dep0 = s.dep0 + excluded.dep0, dep1 = s.dep1 + excluded.dep1, dep2 = s.dep2 + excluded.dep2,
      dep3 = s.dep3 + excluded.dep3, dep4 = s.dep4 + excluded.dep4,
      anx0 = s.anx0 + excluded.anx0, anx1 = s.anx1 + excluded.anx1, anx2 = s.anx2 + excluded.anx2,
      anx3 = s.anx3 + excluded.anx3, anx4 = s.anx4 + excluded.anx4$q$, cond) USING ids, sign;
  EXECUTE format($q$
    INSERT INTO stats_team AS s (grain, period, teamid, musercode, appid, stagecode, stripe, n, abnormal)
    SELECT g.grain, g.period, r.teamid, r.musercode, r.appid, r.stagecode, stats_stripe(r.cusercode), $2 * count(*), $2 * sum(r.abnormal)
    FROM stats_report r CROSS JOIN LATERAL (VALUES ('d', r.day), ('m', date_trunc('month', r.day)::date)) g(grain, period)
    WHERE r.teamid IS NOT NULL AND %s
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (grain, period, teamid, appid, stagecode, stripe) DO UPDATE SET
      n = s.n + excluded.n, abnormal = s.abnormal + excluded.abnormal$q$, cond) USING ids, sign;
  IF ids IS NULL AND sign = 1 AND NOT EXISTS (SELECT 1 FROM stats_person) THEN
    INSERT INTO stats_person (cusercode, musercode, appid, stagecode, n)
    SELECT r.cusercode, r.musercode, st.appid, st.stagecode, count(*)
    FROM stats_report r CROSS JOIN LATERAL (VALUES (r.appid, r.stagecode), (r.appid, '*'), ('*', r.stagecode), ('*', '*')) st(appid, stagecode)
    GROUP BY 1, 2, 3, 4;
    INSERT INTO stats_people AS q (musercode, appid, stagecode, stripe, persons)
    SELECT musercode, appid, stagecode, stats_stripe(cusercode), count(*) FROM stats_person GROUP BY 1, 2, 3, 4
    ON CONFLICT (musercode, appid, stagecode, stripe) DO UPDATE SET persons = q.persons + excluded.persons;
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
    INSERT INTO stats_people AS q (musercode, appid, stagecode, stripe, persons)
    SELECT up.musercode, up.appid, up.stagecode, stats_stripe(up.cusercode),
      sum(CASE WHEN up.n > 0 AND up.n - d.n <= 0 THEN 1 WHEN up.n <= 0 AND up.n - d.n > 0 THEN -1 ELSE 0 END)
    FROM up JOIN d USING (cusercode, musercode, appid, stagecode)
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (musercode, appid, stagecode, stripe) DO UPDATE SET persons = q.persons + excluded.persons$q$, cond) USING ids, sign;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_person_add(codes text[], sign int) RETURNS void AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, stripe, persons)
    SELECT g.grain, g.period, c.musercode, c.appid, '', c.gender, stats_stripe(c.cusercode), $2 * count(*)
    FROM cuser c CROSS JOIN LATERAL (VALUES ('d', stats_day(c.createdat)), ('m', date_trunc('month', stats_day(c.createdat))::date)) g(grain, period)
    WHERE c.deletedat IS NULL AND %s
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET persons = s.persons + excluded.persons$q$,
    CASE WHEN codes IS NULL THEN 'true' ELSE 'c.cusercode = ANY($1)' END) USING codes, sign;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_code_add(codes text[], sign int) RETURNS void AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, stripe, issued, started, finished)
    SELECT g.grain, g.period, k.musercode, c.appid, k.stagecode, c.gender, stats_stripe(c.cusercode),
      $2 * count(*) FILTER (WHERE k.status = 'issued'), $2 * count(*) FILTER (WHERE k.status = 'started'), $2 * count(*) FILTER (WHERE k.status = 'finished')
    FROM assess_code k JOIN cuser c ON c.cusercode = k.cusercode
    CROSS JOIN LATERAL (VALUES ('d', stats_day(k.createdat)), ('m', date_trunc('month', stats_day(k.createdat))::date)) g(grain, period)
    WHERE c.deletedat IS NULL AND %s
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (grain, period, musercode, appid, stagecode, gender, stripe) DO UPDATE SET
      issued = s.issued + excluded.issued, started = s.started + excluded.started, finished = s.finished + excluded.finished$q$,
    CASE WHEN codes IS NULL THEN 'true' ELSE 'k.assesscode = ANY($1)' END) USING codes, sign;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The rows there are, each into its stripe.
SELECT stats_rebuild();
