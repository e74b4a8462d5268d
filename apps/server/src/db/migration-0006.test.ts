import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import * as schema from '../domains/schema.js';
import { migrationsFolder } from './database.js';
import { TEST_EPOCH } from '../test/harness.js';

/**
 * Migration 0006 builds unique indexes over data that was written while the rules were only
 * checked in code. Data with duplicates (parallel creates got through) must still migrate: later
 * duplicates are renamed with their id, nothing is lost, and the rules hold from then on.
 */
describe('migration 0006 on data that breaks the new uniqueness rules', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-mig-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('renames later duplicates, fills signin_name, and enforces the rules afterwards', async () => {
    // The migrations up to 0005, as a database before this change had them.
    fs.cpSync(migrationsFolder, dir, { recursive: true });
    const journal = JSON.parse(fs.readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8'));
    journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 5);
    fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
    const client = await PGlite.create();
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: dir });

    const t0 = new Date(TEST_EPOCH);
    const t1 = new Date(TEST_EPOCH + 1000);
    // The accounts in plain SQL: today's muser table has columns that 0005 did not (0029's website).
    await db.execute(
      sql`insert into muser (musercode, username, pwdhash, musertype, createdat) values ('I1', 'school', 'x', '001', ${t0}), ('I2', 'School', 'x', '001', ${t1})`,
    );
    // Staff users too: today's sysuser has field_encryption's phonehash, which 0005 did not.
    await db.execute(
      sql`insert into sysuser (userid, musercode, sysusername, pwdhash, createdat) values ('U1', 'I1', 'teacher', 'x', ${t0}), ('U2', 'I1', 'Teacher', 'x', ${t1}), ('U3', 'I1', 'SCHOOL', 'x', ${t0})`,
    );
    await db.insert(schema.role).values([
      { roleid: 'R1', musercode: 'I1', rolename: '角色', rolekey: 'k', createdat: t0 },
      { roleid: 'R2', musercode: 'I1', rolename: '角色', rolekey: 'K', createdat: t1 },
      { roleid: 'R3', musercode: 'I2', rolename: '角色', rolekey: 'k', createdat: t0 },
    ]);
    await db.insert(schema.dept).values([
      { deptid: 'D1', musercode: 'I1', deptname: '部门', createdat: t0 },
      { deptid: 'D2', musercode: 'I1', deptname: '部门', createdat: t1 },
    ]);

    await migrate(db, { migrationsFolder });

    const names = (await db.select({ n: schema.muser.username }).from(schema.muser)).map((r) => r.n).sort();
    expect(names).toEqual(['School#I2', 'school']);
    const users = Object.fromEntries((await db.select().from(schema.sysuser)).map((u) => [u.userid, u.sysusername]));
    expect(users).toEqual({ U1: 'teacher', U2: 'Teacher#U2', U3: 'SCHOOL#U3' });
    const roles = Object.fromEntries((await db.select().from(schema.role)).map((r) => [r.roleid, `${r.rolename}/${r.rolekey}`]));
    expect(roles).toEqual({ R1: '角色/k', R2: '角色 (R2)/K_R2', R3: '角色/k' });
    const depts = Object.fromEntries((await db.select().from(schema.dept)).map((d) => [d.deptid, d.deptname]));
    expect(depts).toEqual({ D1: '部门', D2: '部门 (D2)' });
    const signin = (await db.select().from(schema.signinName)).map((r) => r.name).sort();
    expect(signin).toEqual(['SCHOOL#U3', 'School#I2', 'Teacher#U2', 'school', 'teacher']);

    // From now on the database refuses what the code once only checked.
    await expect(db.insert(schema.sysuser).values({ userid: 'U4', musercode: 'I1', sysusername: 'TEACHER', pwdhash: 'x' })).rejects.toThrow();
    await expect(db.insert(schema.role).values({ roleid: 'R4', musercode: 'I1', rolename: '另一个', rolekey: 'K' })).rejects.toThrow();
    expect(Number((await db.execute(sql`select count(*)::int as n from sysuser`)).rows[0]!.n)).toBe(3);
    await client.close();
  });
});
