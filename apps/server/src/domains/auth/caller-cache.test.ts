import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { statementsSent } from '../../test/statements.js';

/**
 * The cache of resolved callers (caller-cache.ts): a burst of requests on one session reads the
 * session once, and any change made to the database (even by hand, outside any action) is honoured
 * by the very next request. Several processes: multiprocess.test.ts.
 */
describe.each(engines('both'))('resolved callers on %s', (engine) => {
  let s: TestServer | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('a burst of requests on one session reads it once', async () => {
    s = await startTestServer(engine);
    const { token } = await s.login('school');
    await s.call('as.m.system.ping', {}, token);
    const statements = await statementsSent(s.database.db, async () => {
      for (let i = 0; i < 10; i++) expect((await s!.call('as.m.system.ping', {}, token)).errorCode).toBe(0);
    });
    expect(statements.length).toBe(0);
  });

  it('a change made in the database by hand is honoured by the next request', async () => {
    s = await startTestServer(engine);
    const teacher = (await s.login('teacher')).token;
    const school = (await s.login('school')).token;
    for (const t of [teacher, school, teacher, school]) expect((await s.call('as.m.system.ping', {}, t)).errorCode).toBe(0);
    // The counsellor role loses its codes: the teacher is refused what code 00018 opened.
    const forms = () => s!.call('as.m.exam.getExamForms', { appid: '' } as never, teacher);
    expect((await forms()).errorCode).not.toBe(ErrorCode.permissionDenied);
    expect((await forms()).errorCode).not.toBe(ErrorCode.permissionDenied);
    await s.database.db.execute(sql`delete from role_menu where roleid = 'R0001'`);
    expect((await forms()).errorCode).toBe(ErrorCode.permissionDenied);
    // The school's session is revoked: refused at once.
    await s.database.db.execute(sql`update session set revokedat = now() where musercode = 'I0001' and userid is null`);
    expect((await s.call('as.m.system.ping', {}, school)).errorCode).toBe(ErrorCode.identityInvalid);
    // The teacher is disabled: refused at once.
    await s.database.db.execute(sql`update sysuser set enabled = 0 where sysusername = 'teacher'`);
    expect((await s.call('as.m.system.ping', {}, teacher)).errorCode).toBe(ErrorCode.identityInvalid);
  });

  it.skipIf(engine !== 'postgres')('while the listening connection is down nothing is served from the cache', async () => {
    s = await startTestServer(engine);
    const { token } = await s.login('school');
    for (let i = 0; i < 3; i++) expect((await s.call('as.m.system.ping', {}, token)).errorCode).toBe(0);
    await s.database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'xinli-change-feed' and datname = current_database()`);
    await new Promise((r) => setTimeout(r, 200));
    // Revoked while no process could hear it (the notification is lost): still refused.
    await s.database.db.execute(sql`update session set revokedat = now() where musercode = 'I0001' and userid is null`);
    expect((await s.call('as.m.system.ping', {}, token)).errorCode).toBe(ErrorCode.identityInvalid);
  });
});
