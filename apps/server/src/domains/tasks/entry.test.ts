import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { assessCode, codeAttempt, respondentSession } from '../assessments/tables.js';
import { classTask, gad7, ok } from './test-task.js';
import { consented } from '../../test/consent.js';

describe.each(engines())('task sign-in (as.c.task.login) on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let task: Awaited<ReturnType<typeof classTask>>;
  const login = (body: Record<string, unknown>, ip = '10.1.0.1') => s.call('as.c.task.login', body, undefined, { 'x-test-ip': ip });
  const codeOf = async (classname: string, studentno: string) => task.codes[classname]![studentno]!;
  const stored = async (assesscode: string) => {
    const db = s.database.db;
    const [code] = await db.select({ status: assessCode.status }).from(assessCode).where(eq(assessCode.assesscode, assesscode));
    const [sessions] = await db.select({ n: count() }).from(respondentSession).where(eq(respondentSession.assesscode, assesscode));
    return { status: code!.status, sessions: Number(sessions!.n) };
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { codeFailuresPerAddress: 3 } });
    school = (await s.login('school')).token;
    task = await classTask(s, school, {
      '1班': [
        ['2026001', '林小雨', '02'],
        ['2026002', '陈 浩然', '01'],
      ],
      '2班': [['2026001', '王子涵', '02']],
    });
  });
  afterAll(() => s?.close());

  it('opens the personal code of the student whose number and name match; the rest is the code’s flow', async () => {
    const code = await codeOf('1班', '2026002');
    expect(await stored(code)).toEqual({ status: 'issued', sessions: 0 });
    // Case and spaces of the code, spaces in the name are forgiven; the same number in another class is someone else.
    const res = await login({ taskcode: ` ${task.taskcode.toLowerCase()} `, studentno: '2026002', realname: '陈浩然' });
    expect(res.errorCode, res.errorMsg).toBe(0);
    expect(res.data).toMatchObject({ assesscode: code, realname: '陈 浩然', finished: false, forms: [{ formcode: 'GAD7', status: 'todo' }] });
    expect(await stored(code)).toEqual({ status: 'started', sessions: 1 });
    const other = await login({ taskcode: task.taskcode, studentno: '2026001', realname: '王子涵' });
    expect(other.data.assesscode).toBe(await codeOf('2班', '2026001'));
    expect(await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, await consented(s, res.data.token)))).toHaveProperty('reportid');
    expect(await stored(code)).toMatchObject({ status: 'finished' });
  });

  it('refuses a wrong number or name with one sentence and stores nothing', async () => {
    const code = await codeOf('1班', '2026001');
    const before = await stored(code);
    const wrongNo = await login({ taskcode: task.taskcode, studentno: '2026009', realname: '林小雨' }, '10.1.0.2');
    const wrongName = await login({ taskcode: task.taskcode, studentno: '2026001', realname: '林小云' }, '10.1.0.2');
    for (const r of [wrongNo, wrongName]) {
      expect(r.errorCode).toBe(ErrorCode.notFound);
      expect(r.errorMsg).toBe('学号或姓名与名单不符，请核对后重新输入；如仍有问题请告诉老师');
      expect(r.data).toBeNull();
    }
    expect(await stored(code)).toEqual(before);
    const unknown = await login({ taskcode: 'ZZZZZZZZ', studentno: '2026001', realname: '林小雨' }, '10.1.0.3');
    expect(unknown).toMatchObject({ errorCode: ErrorCode.notFound, errorMsg: '任务码不存在，请核对后重新输入' });
    const en = await s.call('as.c.task.login', { taskcode: task.taskcode, studentno: '1', realname: 'x' }, undefined, { 'x-test-ip': '10.1.0.3', 'accept-language': 'en-US' });
    expect(en.errorMsg).toMatch(/does not match the class list/);
  });

  it('is rate-limited per address like code entries: failures count, a right entry is not slowed', async () => {
    const ip = '10.1.0.4';
    for (let i = 0; i < 3; i++) expect((await login({ taskcode: task.taskcode, studentno: `99${i}`, realname: '某某' }, ip)).errorCode).toBe(ErrorCode.notFound);
    const limited = await login({ taskcode: task.taskcode, studentno: '2026001', realname: '林小雨' }, ip);
    expect(limited.status).toBe(429);
    expect(limited.errorCode).toBe(ErrorCode.rateLimited);
    expect(await stored(await codeOf('1班', '2026001'))).toMatchObject({ sessions: 0 });
    // Another address of the same class is not held back by it.
    expect((await login({ taskcode: task.taskcode, studentno: '2026001', realname: '林小雨' }, '10.1.0.5')).errorCode).toBe(0);
    const [attempts] = await s.database.db.select({ n: count() }).from(codeAttempt).where(eq(codeAttempt.ip, ip));
    expect(Number(attempts!.n)).toBeGreaterThanOrEqual(4);
  });

  it('outside the task’s window says when it starts or that it ended, and opens nothing', async () => {
    const now = s.clock.now().getTime();
    const later = await classTask(s, school, { '3班': [['2026101', '赵一诺', '02']] }, { startat: new Date(now + 2 * 3_600_000), endat: new Date(now + 5 * 3_600_000) });
    const entry = { taskcode: later.taskcode, studentno: '2026101', realname: '赵一诺' };
    const early = await login(entry, '10.1.0.6');
    expect(early.errorCode).toBe(ErrorCode.validation);
    expect(early.errorMsg).toMatch(/尚未开始，开始时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    s.clock.advance(6 * 3_600_000);
    try {
      const late = await login(entry, '10.1.0.6');
      expect(late.errorCode).toBe(ErrorCode.validation);
      expect(late.errorMsg).toMatch(/已于 .* 结束/);
    } finally {
      s.clock.advance(-6 * 3_600_000);
    }
    expect(await stored(later.codes['3班']!['2026101']!)).toEqual({ status: 'issued', sessions: 0 });
    // Window refusals are not failures: this address may still sign in elsewhere.
    expect((await login({ taskcode: task.taskcode, studentno: '2026001', realname: '王子涵' }, '10.1.0.6')).errorCode).toBe(0);
  });
});
