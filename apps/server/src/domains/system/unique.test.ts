import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { md5Upper } from '../auth/index.js';
import { muser } from '../accounts/tables.js';
import { dept, role, sysuser } from './tables.js';

/**
 * Issue 8 §2: every uniqueness rule is backed by a unique index, so parallel creates leave one
 * row (on PostgreSQL they once stored 5 roles, 8 departments, and both "Racerpg2" and
 * "racerpg2"), and the losers get the same clear conflict message as a sequential clash.
 */
describe.each(engines())('uniqueness under parallel creates on %s', (engine) => {
  let s: TestServer;
  let school: string;
  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
  });
  afterAll(() => s?.close());

  const parallel = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

  it('20 parallel insertRole with one name and key store one role; the rest answer conflict', async () => {
    const answers = await parallel(20, () => s.call('as.m.system.role.insertRole', { rolename: '竞态角色', rolekey: 'racerole', codes: ['00018'] }, school));
    expect(answers.filter((a) => a.errorCode === 0)).toHaveLength(1);
    for (const a of answers.filter((x) => x.errorCode !== 0)) {
      expect(a.errorCode).toBe(ErrorCode.conflict);
      expect(a.errorMsg).toMatch(/已存在|已被使用/);
    }
    expect(await s.database.db.select().from(role).where(and(eq(role.musercode, 'I0001'), eq(role.rolekey, 'racerole')))).toHaveLength(1);
  });

  it('names and keys clash whatever the case: RaceRole2 against racerole2', async () => {
    const answers = await parallel(10, (i) => s.call('as.m.system.role.insertRole', { rolename: i % 2 ? 'RaceName' : 'racename', rolekey: i % 2 ? 'RaceRole2' : 'racerole2' }, school));
    expect(answers.filter((a) => a.errorCode === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.errorCode === ErrorCode.conflict)).toHaveLength(9);
    expect(await s.database.db.select().from(role).where(sql`lower(${role.rolekey}) = 'racerole2'`)).toHaveLength(1);
  });

  it('20 parallel insertDept with one name under one parent store one department', async () => {
    const answers = await parallel(20, () => s.call('as.m.system.dept.insertDept', { parentid: 'D0001', deptname: '竞态部门' }, school));
    expect(answers.filter((a) => a.errorCode === 0)).toHaveLength(1);
    for (const a of answers.filter((x) => x.errorCode !== 0)) {
      expect(a.errorCode).toBe(ErrorCode.conflict);
      expect(a.errorMsg).toContain('同级下已有');
    }
    expect(await s.database.db.select().from(dept).where(eq(dept.deptname, '竞态部门'))).toHaveLength(1);
  });

  it('parallel insertUser of Racerpg2 and racerpg2 leaves exactly one sign-in name', async () => {
    const answers = await parallel(20, (i) =>
      s.call('as.m.system.user.insertUser', { sysusername: i % 2 ? 'Racerpg2' : 'racerpg2', pwd: md5Upper('Race123'), realname: '竞态' }, school, { 'accept-language': 'en-US' }),
    );
    expect(answers.filter((a) => a.errorCode === 0)).toHaveLength(1);
    for (const a of answers.filter((x) => x.errorCode !== 0)) {
      expect(a.errorCode).toBe(ErrorCode.conflict);
      expect(a.errorMsg).toMatch(/sign-in name/);
    }
    expect(await s.database.db.select().from(sysuser).where(sql`lower(${sysuser.sysusername}) = 'racerpg2'`)).toHaveLength(1);
  });

  it('a staff user cannot take an institution account’s sign-in name in another case, nor the reverse', async () => {
    const res = await s.call('as.m.system.user.insertUser', { sysusername: 'SCHOOL', pwd: md5Upper('Race123'), realname: '竞态' }, school);
    expect(res.errorCode).toBe(ErrorCode.conflict);
    // Written behind the handlers' back, the database itself refuses it.
    await expect(s.database.db.insert(sysuser).values({ userid: 'Uclash', musercode: 'I0001', sysusername: 'Hospital', pwdhash: 'x' })).rejects.toThrow();
    await expect(
      s.database.db.insert(muser).values({ musercode: 'Iclash', username: 'TEACHER', pwdhash: 'x', musertype: '001' }),
    ).rejects.toThrow();
    expect(await s.database.db.select().from(sysuser).where(eq(sysuser.userid, 'Uclash'))).toEqual([]);
  });

  it('a freed sign-in name can be taken again', async () => {
    const created = await s.call('as.m.system.user.insertUser', { sysusername: 'freeagain', pwd: md5Upper('Race123'), realname: '竞态' }, school);
    expect(created.errorCode).toBe(0);
    expect((await s.call('as.m.system.user.deleteUserById', { userid: created.data.userid }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.system.user.insertUser', { sysusername: 'FreeAgain', pwd: md5Upper('Race123'), realname: '竞态' }, school)).errorCode).toBe(0);
  });
});
