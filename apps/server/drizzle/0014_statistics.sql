CREATE TABLE "stats_count" (
	"grain" text NOT NULL,
	"period" date NOT NULL,
	"musercode" text NOT NULL,
	"appid" text NOT NULL,
	"stagecode" text NOT NULL,
	"gender" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"abnormal" integer DEFAULT 0 NOT NULL,
	"dep0" integer DEFAULT 0 NOT NULL,
	"dep1" integer DEFAULT 0 NOT NULL,
	"dep2" integer DEFAULT 0 NOT NULL,
	"dep3" integer DEFAULT 0 NOT NULL,
	"dep4" integer DEFAULT 0 NOT NULL,
	"anx0" integer DEFAULT 0 NOT NULL,
	"anx1" integer DEFAULT 0 NOT NULL,
	"anx2" integer DEFAULT 0 NOT NULL,
	"anx3" integer DEFAULT 0 NOT NULL,
	"anx4" integer DEFAULT 0 NOT NULL,
	"persons" integer DEFAULT 0 NOT NULL,
	"issued" integer DEFAULT 0 NOT NULL,
	"started" integer DEFAULT 0 NOT NULL,
	"finished" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_count_grain_period_musercode_appid_stagecode_gender_pk" PRIMARY KEY("grain","period","musercode","appid","stagecode","gender"),
	CONSTRAINT "stats_count_grain_check" CHECK ("stats_count"."grain" in ('d', 'm'))
);
--> statement-breakpoint
CREATE TABLE "stats_people" (
	"musercode" text NOT NULL,
	"appid" text NOT NULL,
	"stagecode" text NOT NULL,
	"persons" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_people_musercode_appid_stagecode_pk" PRIMARY KEY("musercode","appid","stagecode")
);
--> statement-breakpoint
CREATE TABLE "stats_person" (
	"cusercode" text NOT NULL,
	"musercode" text NOT NULL,
	"appid" text NOT NULL,
	"stagecode" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_person_cusercode_musercode_appid_stagecode_pk" PRIMARY KEY("cusercode","musercode","appid","stagecode")
);
--> statement-breakpoint
CREATE TABLE "stats_report" (
	"assessid" text PRIMARY KEY NOT NULL,
	"cusercode" text NOT NULL,
	"musercode" text NOT NULL,
	"appid" text NOT NULL,
	"stagecode" text NOT NULL,
	"day" date NOT NULL,
	"gender" text NOT NULL,
	"teamid" text,
	"abnormal" integer NOT NULL,
	"dep0" integer DEFAULT 0 NOT NULL,
	"dep1" integer DEFAULT 0 NOT NULL,
	"dep2" integer DEFAULT 0 NOT NULL,
	"dep3" integer DEFAULT 0 NOT NULL,
	"dep4" integer DEFAULT 0 NOT NULL,
	"anx0" integer DEFAULT 0 NOT NULL,
	"anx1" integer DEFAULT 0 NOT NULL,
	"anx2" integer DEFAULT 0 NOT NULL,
	"anx3" integer DEFAULT 0 NOT NULL,
	"anx4" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_team" (
	"grain" text NOT NULL,
	"period" date NOT NULL,
	"teamid" text NOT NULL,
	"musercode" text NOT NULL,
	"appid" text NOT NULL,
	"stagecode" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"abnormal" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_team_grain_period_teamid_appid_stagecode_pk" PRIMARY KEY("grain","period","teamid","appid","stagecode")
);
--> statement-breakpoint
CREATE INDEX "stats_count_muser_idx" ON "stats_count" USING btree ("musercode","grain","period");--> statement-breakpoint
CREATE INDEX "stats_report_day_idx" ON "stats_report" USING btree ("musercode","day","cusercode","appid","stagecode");--> statement-breakpoint
CREATE INDEX "stats_team_muser_idx" ON "stats_team" USING btree ("musercode","grain","period");--> statement-breakpoint
-- The statistics read model is kept by the triggers below, in the transaction of each change
-- (see apps/server/src/domains/statistics/tables.ts). Each *_add function adds (sign 1) or takes
-- away (sign -1) what some rows contribute, as they are NOW in the tables; NULL ids means every row
-- (stats_rebuild). Changes of existing rows take away in a BEFORE trigger (the old row is still
-- what the tables hold) and add in an AFTER trigger, so every path stays exact.
CREATE OR REPLACE FUNCTION stats_day(ts timestamptz) RETURNS date AS $$
  SELECT ((ts AT TIME ZONE 'UTC') + interval '8 hours')::date
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- Reports: stats_report holds one row per counted report; this sums those rows into the aggregates.
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
-- Recomputes the fact rows of some reports (NULL: all) from assessment, cuser, task_person and
-- assessment_indicator, taking away what the old rows gave and adding what the new ones give.
CREATE OR REPLACE FUNCTION stats_refresh(ids text[]) RETURNS void AS $$
DECLARE
  cond text := CASE WHEN ids IS NULL THEN 'true' ELSE 'a.assessid = ANY($1)' END;
BEGIN
  IF ids IS NOT NULL AND cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM stats_report_add(ids, -1);
  IF ids IS NULL THEN DELETE FROM stats_report; ELSE DELETE FROM stats_report WHERE assessid = ANY(ids); END IF;
  EXECUTE format($q$
    INSERT INTO stats_report (assessid, cusercode, musercode, appid, stagecode, day, gender, teamid, abnormal,
      dep0, dep1, dep2, dep3, dep4, anx0, anx1, anx2, anx3, anx4)
    SELECT a.assessid, a.cusercode, a.musercode, a.appid, a.stagecode, stats_day(a.createdat), c.gender,
      (SELECT tp.teamid FROM task_person tp JOIN team t ON t.teamid = tp.teamid AND t.kind = 'class' WHERE tp.assesscode = a.assesscode),
      CASE WHEN a.mentalstate BETWEEN 2 AND 4 THEN 1 ELSE 0 END,
      m.dep0, m.dep1, m.dep2, m.dep3, m.dep4, m.anx0, m.anx1, m.anx2, m.anx3, m.anx4
    FROM assessment a
    JOIN cuser c ON c.cusercode = a.cusercode
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE i.mood = 'depressed' AND i.level = 0)::int AS dep0,
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
    WHERE a.hidden = 0 AND a.voided = 0 AND c.deletedat IS NULL AND %s$q$, cond) USING ids;
  PERFORM stats_report_add(ids, 1);
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Persons registered (living), on the day they were registered, under stage ''.
CREATE OR REPLACE FUNCTION stats_person_add(codes text[], sign int) RETURNS void AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, persons)
    SELECT g.grain, g.period, c.musercode, c.appid, '', c.gender, $2 * count(*)
    FROM cuser c CROSS JOIN LATERAL (VALUES ('d', stats_day(c.createdat)), ('m', date_trunc('month', stats_day(c.createdat))::date)) g(grain, period)
    WHERE c.deletedat IS NULL AND %s
    GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (grain, period, musercode, appid, stagecode, gender) DO UPDATE SET persons = s.persons + excluded.persons$q$,
    CASE WHEN codes IS NULL THEN 'true' ELSE 'c.cusercode = ANY($1)' END) USING codes, sign;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- One-time codes of living persons, on the day they were given, by their state now.
CREATE OR REPLACE FUNCTION stats_code_add(codes text[], sign int) RETURNS void AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO stats_count AS s (grain, period, musercode, appid, stagecode, gender, issued, started, finished)
    SELECT g.grain, g.period, k.musercode, c.appid, k.stagecode, c.gender,
      $2 * count(*) FILTER (WHERE k.status = 'issued'), $2 * count(*) FILTER (WHERE k.status = 'started'), $2 * count(*) FILTER (WHERE k.status = 'finished')
    FROM assess_code k JOIN cuser c ON c.cusercode = k.cusercode
    CROSS JOIN LATERAL (VALUES ('d', stats_day(k.createdat)), ('m', date_trunc('month', stats_day(k.createdat))::date)) g(grain, period)
    WHERE c.deletedat IS NULL AND %s
    GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (grain, period, musercode, appid, stagecode, gender) DO UPDATE SET
      issued = s.issued + excluded.issued, started = s.started + excluded.started, finished = s.finished + excluded.finished$q$,
    CASE WHEN codes IS NULL THEN 'true' ELSE 'k.assesscode = ANY($1)' END) USING codes, sign;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Everything again from the raw rows (after a bulk load with triggers off, or to check them).
CREATE OR REPLACE FUNCTION stats_rebuild() RETURNS void AS $$
BEGIN
  TRUNCATE stats_report, stats_count, stats_team, stats_person, stats_people;
  PERFORM stats_refresh(NULL);
  PERFORM stats_person_add(NULL, 1);
  PERFORM stats_code_add(NULL, 1);
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Reports: stored, changed in what counts, deleted.
CREATE OR REPLACE FUNCTION stats_assessment_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM stats_refresh(array(SELECT assessid FROM new_rows));
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
CREATE TRIGGER stats_assessment_inserted AFTER INSERT ON assessment REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_assessment_changed();
--> statement-breakpoint
CREATE TRIGGER stats_assessment_updated AFTER UPDATE ON assessment REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_assessment_changed();
--> statement-breakpoint
CREATE TRIGGER stats_assessment_deleted AFTER DELETE ON assessment REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_assessment_changed();
--> statement-breakpoint
-- Indicator results of the moods (depressed, anxious) of a report.
CREATE OR REPLACE FUNCTION stats_indicator_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM stats_refresh(array(SELECT DISTINCT assessid FROM new_rows WHERE mood IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM stats_refresh(array(SELECT DISTINCT assessid FROM old_rows WHERE mood IS NOT NULL));
  ELSE
    PERFORM stats_refresh(array(SELECT assessid FROM new_rows WHERE mood IS NOT NULL UNION SELECT assessid FROM old_rows WHERE mood IS NOT NULL));
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER stats_indicator_inserted AFTER INSERT ON assessment_indicator REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_indicator_changed();
--> statement-breakpoint
CREATE TRIGGER stats_indicator_updated AFTER UPDATE ON assessment_indicator REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_indicator_changed();
--> statement-breakpoint
CREATE TRIGGER stats_indicator_deleted AFTER DELETE ON assessment_indicator REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_indicator_changed();
--> statement-breakpoint
-- A code given through a class task: its reports belong to the class.
CREATE OR REPLACE FUNCTION stats_task_person_changed() RETURNS trigger AS $$
BEGIN
  PERFORM stats_refresh(array(SELECT a.assessid FROM assessment a WHERE a.assesscode IN (SELECT assesscode FROM new_rows)));
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER stats_task_person_inserted AFTER INSERT ON task_person REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_task_person_changed();
--> statement-breakpoint
-- Persons: registered (statement), changed in what counts or deleted (row: take away before, add after).
CREATE OR REPLACE FUNCTION stats_cuser_inserted() RETURNS trigger AS $$
BEGIN
  PERFORM stats_person_add(array(SELECT cusercode FROM new_rows), 1);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER stats_cuser_inserted AFTER INSERT ON cuser REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_cuser_inserted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_cuser_before() RETURNS trigger AS $$
BEGIN
  PERFORM stats_person_add(ARRAY[OLD.cusercode], -1);
  PERFORM stats_code_add(array(SELECT assesscode FROM assess_code WHERE cusercode = OLD.cusercode), -1);
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_cuser_after() RETURNS trigger AS $$
BEGIN
  PERFORM stats_person_add(ARRAY[NEW.cusercode], 1);
  PERFORM stats_code_add(array(SELECT assesscode FROM assess_code WHERE cusercode = NEW.cusercode), 1);
  PERFORM stats_refresh(array(SELECT assessid FROM assessment WHERE cusercode = NEW.cusercode));
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER stats_cuser_before_update BEFORE UPDATE ON cuser FOR EACH ROW
  WHEN ((OLD.deletedat, OLD.gender, OLD.createdat, OLD.musercode, OLD.appid) IS DISTINCT FROM (NEW.deletedat, NEW.gender, NEW.createdat, NEW.musercode, NEW.appid))
  EXECUTE FUNCTION stats_cuser_before();
--> statement-breakpoint
CREATE TRIGGER stats_cuser_after_update AFTER UPDATE ON cuser FOR EACH ROW
  WHEN ((OLD.deletedat, OLD.gender, OLD.createdat, OLD.musercode, OLD.appid) IS DISTINCT FROM (NEW.deletedat, NEW.gender, NEW.createdat, NEW.musercode, NEW.appid))
  EXECUTE FUNCTION stats_cuser_after();
--> statement-breakpoint
-- A deleted person's codes are taken away here: their own delete (cascaded) no longer finds the person.
CREATE TRIGGER stats_cuser_before_delete BEFORE DELETE ON cuser FOR EACH ROW EXECUTE FUNCTION stats_cuser_before();
--> statement-breakpoint
-- One-time codes: given (statement), state or day changed, withdrawn.
CREATE OR REPLACE FUNCTION stats_code_inserted() RETURNS trigger AS $$
BEGIN
  PERFORM stats_code_add(array(SELECT assesscode FROM new_rows), 1);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER stats_code_inserted AFTER INSERT ON assess_code REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_code_inserted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_code_before() RETURNS trigger AS $$
BEGIN
  PERFORM stats_code_add(ARRAY[OLD.assesscode], -1);
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_code_after() RETURNS trigger AS $$
BEGIN
  PERFORM stats_code_add(ARRAY[NEW.assesscode], 1);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER stats_code_before_update BEFORE UPDATE ON assess_code FOR EACH ROW
  WHEN ((OLD.status, OLD.createdat, OLD.cusercode, OLD.musercode, OLD.stagecode) IS DISTINCT FROM (NEW.status, NEW.createdat, NEW.cusercode, NEW.musercode, NEW.stagecode))
  EXECUTE FUNCTION stats_code_before();
--> statement-breakpoint
CREATE TRIGGER stats_code_after_update AFTER UPDATE ON assess_code FOR EACH ROW
  WHEN ((OLD.status, OLD.createdat, OLD.cusercode, OLD.musercode, OLD.stagecode) IS DISTINCT FROM (NEW.status, NEW.createdat, NEW.cusercode, NEW.musercode, NEW.stagecode))
  EXECUTE FUNCTION stats_code_after();
--> statement-breakpoint
CREATE TRIGGER stats_code_before_delete BEFORE DELETE ON assess_code FOR EACH ROW EXECUTE FUNCTION stats_code_before();
--> statement-breakpoint
-- Data that existed before this migration.
SELECT stats_rebuild();
