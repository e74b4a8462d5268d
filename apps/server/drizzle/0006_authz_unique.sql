-- Issue 8 §2: uniqueness rules backed by the database, login-as sessions tied to their actor,
-- sign-in attempts ordered, scale edits counted.
--
-- Existing data may break a rule that was only checked in code (parallel creates got through).
-- Before each unique index is built, the later duplicates (by creation time, then id) are renamed
-- with their id appended, so the migration never fails and no row is lost; an administrator can
-- rename them afterwards. Renamed sign-in names are the only visible effect: such a user signs in
-- with "name#id" until renamed.
CREATE TABLE "signin_name" (
	"name" text NOT NULL,
	"musercode" text,
	"userid" text
);
--> statement-breakpoint
ALTER TABLE "login_attempt" ADD COLUMN "id" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "actoruserid" text;--> statement-breakpoint
ALTER TABLE "form" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "signin_name" ADD CONSTRAINT "signin_name_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
UPDATE "role" r SET "rolename" = r."rolename" || ' (' || r."roleid" || ')'
  FROM (SELECT "roleid", row_number() OVER (PARTITION BY "musercode", lower("rolename") ORDER BY "createdat", "roleid") AS n FROM "role") d
  WHERE d."roleid" = r."roleid" AND d.n > 1;
--> statement-breakpoint
UPDATE "role" r SET "rolekey" = r."rolekey" || '_' || r."roleid"
  FROM (SELECT "roleid", row_number() OVER (PARTITION BY "musercode", lower("rolekey") ORDER BY "createdat", "roleid") AS n FROM "role") d
  WHERE d."roleid" = r."roleid" AND d.n > 1;
--> statement-breakpoint
UPDATE "dept" t SET "deptname" = t."deptname" || ' (' || t."deptid" || ')'
  FROM (SELECT "deptid", row_number() OVER (PARTITION BY "musercode", coalesce("parentid", ''), "deptname" ORDER BY "createdat", "deptid") AS n FROM "dept") d
  WHERE d."deptid" = t."deptid" AND d.n > 1;
--> statement-breakpoint
UPDATE "muser" m SET "username" = m."username" || '#' || m."musercode"
  FROM (SELECT "musercode", row_number() OVER (PARTITION BY lower("username") ORDER BY "createdat", "musercode") AS n FROM "muser") d
  WHERE d."musercode" = m."musercode" AND d.n > 1;
--> statement-breakpoint
UPDATE "sysuser" u SET "sysusername" = u."sysusername" || '#' || u."userid"
  FROM (SELECT "userid", row_number() OVER (PARTITION BY lower("sysusername") ORDER BY "createdat", "userid") AS n FROM "sysuser") d
  WHERE d."userid" = u."userid" AND (d.n > 1 OR EXISTS (SELECT 1 FROM "muser" m WHERE lower(m."username") = lower(u."sysusername")));
--> statement-breakpoint
INSERT INTO "signin_name" ("name", "musercode") SELECT "username", "musercode" FROM "muser";
--> statement-breakpoint
INSERT INTO "signin_name" ("name", "userid") SELECT "sysusername", "userid" FROM "sysuser";
--> statement-breakpoint
CREATE UNIQUE INDEX "signin_name_lower_idx" ON "signin_name" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "signin_name_user_idx" ON "signin_name" USING btree ("userid");--> statement-breakpoint
CREATE INDEX "signin_name_muser_idx" ON "signin_name" USING btree ("musercode");--> statement-breakpoint
CREATE UNIQUE INDEX "dept_sibling_name_idx" ON "dept" USING btree ("musercode",coalesce("parentid", ''),"deptname");--> statement-breakpoint
CREATE UNIQUE INDEX "role_name_idx" ON "role" USING btree ("musercode",lower("rolename"));--> statement-breakpoint
CREATE UNIQUE INDEX "role_key_idx" ON "role" USING btree ("musercode",lower("rolekey"));--> statement-breakpoint
CREATE INDEX "session_actor_user_idx" ON "session" USING btree ("actoruserid");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION signin_name_of_muser() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO signin_name (name, musercode) VALUES (NEW.username, NEW.musercode);
  ELSIF NEW.username IS DISTINCT FROM OLD.username THEN
    UPDATE signin_name SET name = NEW.username WHERE musercode = OLD.musercode;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER muser_signin_name AFTER INSERT OR UPDATE OF username ON muser
  FOR EACH ROW EXECUTE FUNCTION signin_name_of_muser();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION signin_name_of_sysuser() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO signin_name (name, userid) VALUES (NEW.sysusername, NEW.userid);
  ELSIF TG_OP = 'UPDATE' THEN
    IF NEW.sysusername IS DISTINCT FROM OLD.sysusername THEN
      UPDATE signin_name SET name = NEW.sysusername WHERE userid = OLD.userid;
    END IF;
  ELSE
    DELETE FROM signin_name WHERE userid = OLD.userid;
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER sysuser_signin_name AFTER INSERT OR UPDATE OF sysusername OR DELETE ON sysuser
  FOR EACH ROW EXECUTE FUNCTION signin_name_of_sysuser();
