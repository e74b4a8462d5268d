import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { changedTables, fingerprint } from '../../test/sweep/fingerprint.js';
import { respondentSession } from '../assessments/tables.js';
import { taskPerson } from './tables.js';
import { classTask, ok } from './test-task.js';

/**
 * Issue 27: the optional second factor of the task sign-in. Off by default; with it on, number and
 * name open nothing without the PIN printed on the student's slip; wrong PINs count per address
 * and per student.
 */
describe.each(engines())('task sign-in PINs on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let task: Awaited<ReturnType<typeof classTask>>;
  let ip = 0;
  const from = (address?: string) => ({ 'x-test-ip': address ?? `10.27.20.${++ip}` });
  const login = (body: Record<string, unknown>, address?: string) => s.call('as.c.task.login', body, undefined, from(address));
  const lin = { studentno: '2028001', realname: '林小雨' };
  const chen = { studentno: '2028002', realname: '陈浩然' };
  const sessionsOf = async (assesscode: string) =>
    (await s.database.db.select().from(respondentSession).where(eq(respondentSession.assesscode, assesscode))).length;
  const pinsOf = async (teamid?: string) => {
    const { rows } = await ok(s.call('as.m.assess.resetAssessTaskPins', { taskid: task.taskid, ...(teamid ? { teamid } : {}) }, school));
    return new Map<string, string>(rows.map((r: { cusercode: string; pin: string }) => [r.cusercode, r.pin]));
  };
  const cusercodeOf = async (assesscode: string) =>
    (
      await s.database.db
        .select()
        .from(taskPerson)
        .where(and(eq(taskPerson.taskid, task.taskid), eq(taskPerson.assesscode, assesscode)))
    )[0]!.cusercode;

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { codeFailuresPerAddress: 4, taskPinFailures: 3 } });
    school = (await s.login('school')).token;
    task = await classTask(s, school, {
      '1班': [
        ['2028001', '林小雨', '02'],
        ['2028002', '陈浩然', '01'],
      ],
    });
  });
  afterAll(() => s?.close());

  it('is off by default: number and name sign in, the screen is told no PIN is asked', async () => {
    expect(await ok(s.call('as.m.assess.getAssessTaskPin', { taskid: task.taskid }, school))).toEqual({
      pinrequired: 0,
      total: 2,
      withpin: 0,
      locked: 0,
    });
    expect(await ok(s.call('as.c.task.getTask', { taskcode: task.taskcode }, undefined, from()))).toEqual({
      taskname: expect.any(String),
      pinrequired: 0,
    });
    expect(await ok(login({ taskcode: task.taskcode, ...chen }))).toHaveProperty('token');
    // Slips without PINs: none is drawn while the task does not ask for them.
    expect((await s.call('as.m.assess.resetAssessTaskPins', { taskid: task.taskid }, school)).errorCode).toBe(ErrorCode.validation);
  });

  it('with it on, a classmate who knows number and name opens nothing; the slip’s PIN does', async () => {
    await ok(s.call('as.m.assess.updateAssessTaskPin', { taskid: task.taskid, pinrequired: 1 }, school));
    expect(await ok(s.call('as.c.task.getTask', { taskcode: task.taskcode }, undefined, from()))).toMatchObject({ pinrequired: 1 });
    const code = task.codes['1班']!['2028001']!;
    const me = await cusercodeOf(code);

    // Before the slips are printed nobody has a PIN.
    const unprinted = await login({ taskcode: task.taskcode, ...lin, pin: '123456' });
    expect(unprinted).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: expect.stringContaining('还没有打印') });

    const pins = await pinsOf(task.teamids['1班']);
    expect(pins.size).toBe(2);
    const pin = pins.get(me)!;
    expect(pin).toMatch(/^[0-9]{6}$/);
    // Only a salted hash is kept.
    const [row] = await s.database.db
      .select()
      .from(taskPerson)
      .where(and(eq(taskPerson.taskid, task.taskid), eq(taskPerson.cusercode, me)));
    expect(row!.pinhash).not.toContain(pin);
    expect(row!.pinhash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(await ok(s.call('as.m.assess.getAssessTaskPin', { taskid: task.taskid }, school))).toMatchObject({ pinrequired: 1, withpin: 2 });

    const before = await fingerprint(s.database.db);
    const none = await login({ taskcode: task.taskcode, ...lin });
    expect(none).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: '本次测评需要输入纸条上的6位口令' });
    const wrong = await login({ taskcode: task.taskcode, ...lin, pin: pin === '000000' ? '000001' : '000000' });
    // One sentence for a wrong number, name or PIN.
    expect(wrong).toMatchObject({
      errorCode: ErrorCode.notFound,
      errorMsg: '学号、姓名或口令与名单不符，请核对后重新输入；如仍有问题请告诉老师',
    });
    expect((await login({ taskcode: task.taskcode, studentno: '2028009', realname: '林小雨', pin })).errorMsg).toBe(wrong.errorMsg);
    // A wrong PIN stores nothing but its count (per student, and the address's failed attempt).
    expect(changedTables(before, await fingerprint(s.database.db))).toEqual(['task_person']);
    expect(await sessionsOf(code)).toBe(0);

    const right = await ok(login({ taskcode: task.taskcode, ...lin, pin }));
    expect(right).toMatchObject({ assesscode: code, realname: '林小雨' });
    expect(await sessionsOf(code)).toBe(1);
  });

  it('locks a student after a few wrong PINs, even from many addresses and in parallel; a new slip unlocks', async () => {
    const code = task.codes['1班']!['2028002']!;
    const him = await cusercodeOf(code);
    let pin = (await pinsOf()).get(him)!;
    const wrongPin = pin === '999999' ? '999998' : '999999';
    // Ten guesses at once from ten addresses: at most three (TASK_PIN_FAILURES) are ever compared.
    const guesses = await Promise.all(Array.from({ length: 10 }, () => login({ taskcode: task.taskcode, ...chen, pin: wrongPin })));
    expect(guesses.filter((g) => g.errorCode === ErrorCode.notFound)).toHaveLength(3);
    expect(guesses.filter((g) => g.errorCode === ErrorCode.locked)).toHaveLength(7);
    const locked = await login({ taskcode: task.taskcode, ...chen, pin }, '10.27.21.1');
    expect(locked).toMatchObject({ errorCode: ErrorCode.locked, errorMsg: expect.stringContaining('口令输错次数过多') });
    expect(await ok(s.call('as.m.assess.getAssessTaskPin', { taskid: task.taskid }, school))).toMatchObject({ locked: 1 });
    // The personal code on the slip still opens (the lock guards only number-and-name sign-in).
    expect((await s.call('as.c.exam.start', { assesscode: code }, undefined, from())).errorCode).toBe(0);

    // Printing his slip again draws a new PIN: the old one stops working, the lock is lifted.
    const { rows } = await ok(s.call('as.m.assess.resetAssessTaskPins', { taskid: task.taskid, cusercode: him }, school));
    expect(rows).toHaveLength(1);
    const old = pin;
    pin = rows[0].pin;
    if (old !== pin) expect((await login({ taskcode: task.taskcode, ...chen, pin: old })).errorCode).toBe(ErrorCode.notFound);
    expect((await login({ taskcode: task.taskcode, ...chen, pin })).errorCode).toBe(0);
  });

  it('wrong PINs count against the address like wrong codes', async () => {
    const address = '10.27.22.1';
    const pin = (await pinsOf()).get(await cusercodeOf(task.codes['1班']!['2028001']!))!;
    const wrongPin = pin === '111111' ? '111112' : '111111';
    for (let i = 0; i < 2; i++)
      expect((await login({ taskcode: task.taskcode, ...lin, pin: wrongPin }, address)).errorCode).toBe(ErrorCode.notFound);
    for (let i = 0; i < 2; i++)
      expect((await login({ taskcode: task.taskcode, ...chen, pin: wrongPin }, address)).errorCode).toBe(ErrorCode.notFound);
    const limited = await login({ taskcode: task.taskcode, ...lin, pin }, address);
    expect(limited.status).toBe(429);
    expect(limited.errorCode).toBe(ErrorCode.rateLimited);
  });

  // Another institution's task answers "not found": the tenant sweep checks these actions like every other.
  it('switching it off lets number and name in again', async () => {
    await ok(s.call('as.m.assess.updateAssessTaskPin', { taskid: task.taskid, pinrequired: 0 }, school));
    expect((await login({ taskcode: task.taskcode, ...lin })).errorCode).toBe(0);
  });
});
