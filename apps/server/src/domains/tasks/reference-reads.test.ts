import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { statementsSent } from '../../test/statements.js';
import { classTask, gad7, ok, type Student } from './test-task.js';
import { consented } from '../../test/consent.js';

/**
 * The rows a class reads at every sign-in and submission but that rarely change (kit/reference-reads,
 * issue 33 §3): read once for the class, and any change of them, even made by hand in the database
 * outside any action, is honoured by the very next step.
 */
describe.each(engines('both'))('reference reads of the respondent steps on %s', (engine) => {
  let s: TestServer;
  let task: Awaited<ReturnType<typeof classTask>>;
  const students: Student[] = Array.from({ length: 14 }, (_, i) => [`20260${i + 10}`, `学生${i}`, '02']);
  const login = (i: number, ip = '10.7.0.1') =>
    s.call('as.c.task.login', { taskcode: task.taskcode, studentno: students[i]![0], realname: students[i]![1] }, undefined, {
      'x-test-ip': ip,
    });

  const statementsOf = (run: () => Promise<unknown>) => statementsSent(s.database.db, run);
  const reads = (statements: string[], table: string) =>
    statements.filter((q) => q.startsWith('select') && q.includes(`from "${table}"`)).length;

  beforeAll(async () => {
    s = await startTestServer(engine);
    task = await classTask(s, (await s.login('school')).token, { '1班': students });
  });
  afterAll(() => s?.close());

  it('a class signing in and submitting reads its task, plan, entry settings, consent notice, forms, scoring choices, warning settings and norms once', async () => {
    const tables = ['task', 'plan', 'muser_entry', 'consent_notice', 'form', 'form_convention', 'warning_setting', 'norm'];
    // Nothing kept from before: a statement on a table announces a change even when it changes no row.
    for (const table of tables) await s.database.db.execute(sql.raw(`delete from ${table} where false`));
    // Heard before the class's first step: on PostgreSQL one heard after it would drop what it kept.
    await s.changesHeard();
    const first = await statementsOf(async () => {
      const session = await ok(login(0));
      await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, await consented(s, session.token)));
    });
    const next = await statementsOf(async () => {
      for (const i of [1, 2]) {
        const session = await ok(login(i));
        await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, await consented(s, session.token)));
      }
    });
    for (const table of tables) {
      expect(reads(first, table), table).toBeGreaterThan(0);
      expect(reads(next, table), table).toBe(0);
    }
    // Each student's own rows are still read: the roster row and the code.
    expect(reads(next, 'task_person')).toBeGreaterThanOrEqual(2);
  });

  it('the steps after a task sign-in check the window of the task the sign-in read, not reading it again', async () => {
    await s.database.db.execute(sql`delete from task where false`); // nothing kept from before
    await s.changesHeard();
    await ok(login(8)); // the class's task is kept
    const ofCode = (statements: string[]) => statements.filter((q) => /from "task_person" inner join "task"/.test(q)).length;
    const steps = await statementsOf(async () => {
      const session = await ok(login(9));
      await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, await consented(s, session.token)));
    });
    expect(reads(steps, 'task_person')).toBe(1); // the roster row of the sign-in
    expect(ofCode(steps)).toBe(0);
  });

  it("a student's person and class grade are read once, at the sign-in, not again at each step", async () => {
    await s.changesHeard();
    const steps = await statementsOf(async () => {
      const session = await ok(login(10));
      await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, await consented(s, session.token)));
    });
    // The sign-in, the session read, the guardian's consent and the submission each ask for both.
    expect(reads(steps, 'cuser')).toBe(1);
    expect(steps.filter((q) => /from "team_member" inner join "team"/.test(q))).toHaveLength(1);
  });

  it("a change of a student's person or class made by hand is honoured by the next step", async () => {
    const token = (await ok(login(11))).token;
    const session = async () => (await ok(s.call('as.c.exam.getSession', {}, token))) as { realname: string; privacy: { minor: boolean } };
    const cusercode = (await s.database.db.execute(sql`select cusercode from task_person where taskid = ${task.taskid} and studentno = ${students[11]![0]}`)) as unknown as {
      rows: { cusercode: string }[];
    };
    const person = cusercode.rows[0]!.cusercode;
    const teamid = task.teamids['1班']!;
    expect(await session()).toMatchObject({ realname: students[11]![1], privacy: { minor: true } }); // 初一: under 14 by grade
    await s.database.db.execute(sql`update team set grade = '高一' where teamid = ${teamid}`);
    expect((await session()).privacy.minor).toBe(false);
    await s.database.db.execute(sql`update team set grade = '初一' where teamid = ${teamid}`);
    expect((await session()).privacy.minor).toBe(true);
    // Out of the class: no grade says they are under 14.
    await s.database.db.execute(sql`delete from team_member where cusercode = ${person}`);
    expect((await session()).privacy.minor).toBe(false);
    await s.database.db.execute(sql`insert into team_member (teamid, cusercode, studentno, joinedat) values (${teamid}, ${person}, ${students[11]![0]}, now())`);
    expect((await session()).privacy.minor).toBe(true);
    // A birth date decides before the grade; the name is the person's own.
    await s.database.db.execute(sql`update cuser set birthdate = '2000-01-01', realname = '改了名' where cusercode = ${person}`);
    expect(await session()).toMatchObject({ realname: '改了名', privacy: { minor: false } });
  });

  // On PostgreSQL a kept read is confirmed current by a round trip on the change feed's connection
  // (an empty query; db/change-feed.ts); reads asked for together share one.
  if (engine === 'postgres')
    it('a submission confirms what it kept in two round trips: the task of its code, then the rest, read together', async () => {
      const ready = async (i: number) => {
        const token = await consented(s, (await ok(login(i))).token);
        return () => ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, token));
      };
      const first = await ready(6);
      await first(); // the class's rows are kept
      const submit = await ready(7); // and this student's task of its code
      const query = vi.spyOn(pg.Client.prototype, 'query');
      try {
        await submit();
        const confirmations = query.mock.calls.filter(([text]) => text === '').length;
        expect(confirmations).toBeGreaterThan(0);
        expect(confirmations).toBeLessThanOrEqual(2);
      } finally {
        query.mockRestore();
      }
    });

  it('a change made in the database by hand is honoured by the next step', async () => {
    await ok(login(3));
    // The plan renamed: the next sign-in names it so.
    await s.database.db.execute(sql`update plan set planname = '改过名的计划' where plancode = ${task.plancode}`);
    expect((await ok(login(3))).planname).toBe('改过名的计划');
    // The institution's consent text written (its entry settings made, or changed).
    await s.database.db.execute(
      sql`insert into muser_entry (musercode, token, consent) values ('I0001', 'reference-reads-test', '新的知情同意书') on conflict (musercode) do update set consent = excluded.consent`,
    );
    expect((await ok(login(3))).consent.text.zh).toBe('新的知情同意书');
    // The institution renamed (accounts announce on xinli_auth).
    await s.database.db.execute(sql`update muser set insname = '改过名的学校' where musercode = 'I0001'`);
    expect((await ok(login(3))).insname).toBe('改过名的学校');
    // A new version of the institution's notice: a student who agreed to the one before must agree again.
    const agreed = await consented(s, (await ok(login(12))).token);
    await s.database.db.execute(
      sql`insert into consent_notice (musercode, version, zh, en, hash, createdby, createdat) values ('I0001', 99, '新的告知', 'A new notice', 'reference-reads-test', 'test', now())`,
    );
    const unagreed = await s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, agreed);
    expect(unagreed.errorMsg).toMatch(/请先阅读并同意/);
    // The task ended: refused at sign-in and at the next step of a code it gave.
    const token = await consented(s, (await ok(login(4))).token);
    await s.database.db.execute(
      sql`update task set endat = ${new Date(s.clock.now().getTime() - 60_000).toISOString()}::timestamptz where taskid = ${task.taskid}`,
    );
    const closed = await login(5);
    const step = await s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, token);
    for (const refused of [closed, step]) {
      expect(refused.errorCode).toBe(ErrorCode.validation);
      expect(refused.errorMsg).toMatch(/已于 .* 结束/);
    }
  });
});
