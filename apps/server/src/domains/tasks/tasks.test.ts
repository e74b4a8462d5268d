import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, TEST_EPOCH, type TestServer } from '../../test/harness.js';
import { fingerprint } from '../../test/sweep/fingerprint.js';
import { auditLog } from '../audit/tables.js';
import { task, taskTeam, team } from './tables.js';

const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

describe.each(engines())('group assessment tasks on %s', (engine) => {
  let s: TestServer;
  let school: string; // I0001
  let classA: string, classB: string;
  let signins = 0;
  const signIn = async (u: string) => (await s.login(u, undefined, `10.41.${Math.floor(++signins / 200)}.${signins % 200}`)).token;
  const audits = (action: string) => s.database.db.select().from(auditLog).where(eq(auditLog.action, action));
  const addMember = async (teamid: string, studentno: string, realname: string) => {
    const r = await s.call('as.m.assess.insertAssessTeamCUser', { teamid, studentno, realname, gender: '01' }, school);
    expect(r.errorCode, r.errorMsg).toBe(0);
    return r.data.cusercode as string;
  };
  const newTask = async (taskname: string, teamids: string[], from = TEST_EPOCH - HOUR, to = TEST_EPOCH + 24 * HOUR, plancode = 'PL-S1') => {
    const r = await s.call('as.m.assess.insertAssessTask', { taskname, plancode, teamids, startat: at(from), endat: at(to) }, school);
    expect(r.errorCode, r.errorMsg).toBe(0);
    return r.data as { taskid: string; taskcode: string };
  };
  const taskRoster = async (taskid: string) =>
    (await s.call('as.m.assess.getAssessTaskRoster', { taskid, pageSize: 100 }, school)).data.rows as { cusercode: string; studentno: string; realname: string; assesscode: string; status: string; teamname: string; url: string }[];

  beforeAll(async () => {
    s = await startTestServer(engine);
    school = await signIn('school');
    const mk = async (classname: string) =>
      (await s.call('as.m.assess.insertAssessTeam', { kind: 'class', school: '滨江一中', year: '2026', term: '第一学期', grade: '初一', classname, deptname: '' }, school)).data.teamid as string;
    classA = await mk('1班');
    classB = await mk('2班');
    await addMember(classA, 'A01', '王一');
    await addMember(classA, 'A02', '王二');
    await addMember(classB, 'B01', '李一');
  });
  afterAll(() => s?.close());

  it('creates a task for the institution’s teams and refuses bad windows, unknown plans and other institutions’ teams', async () => {
    await s.database.db.insert(team).values({ teamid: 'TMOTHER', musercode: 'I0006', kind: 'class', appid: '000000002', school: '广州中学', grade: '初一', classname: '1班' });
    const before = await fingerprint(s.database.db);
    const base = { taskname: '期中筛查', plancode: 'PL-S1', teamids: [classA], startat: at(TEST_EPOCH), endat: at(TEST_EPOCH + HOUR) };
    expect((await s.call('as.m.assess.insertAssessTask', { ...base, endat: at(TEST_EPOCH) }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.assess.insertAssessTask', { ...base, startat: '2026-11-21 08:00' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.assess.insertAssessTask', { ...base, teamids: [classA, 'TMOTHER'] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.insertAssessTask', { ...base, plancode: 'PL-M1' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.insertAssessTask', { ...base, musercode: 'I0006' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect(await fingerprint(s.database.db)).toEqual(before);

    const { taskid, taskcode } = await newTask('期中筛查', [classA, classB]);
    expect(taskcode).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    const list = await s.call('as.m.assess.getTaskList', { taskname: '期中' }, school);
    expect(list.data.rows).toEqual([
      expect.objectContaining({ taskid, taskcode, musercode: 'I0001', insname: '滨江第一中学', plancode: 'PL-S1', planname: '新生心理普查', status: 'running', rostercount: 3, issuedcount: 0, answeredcount: 0 }),
    ]);
    expect(list.data.rows[0].teams.map((t: { teamname: string }) => t.teamname)).toEqual(['滨江一中 初一 1班', '滨江一中 初一 2班']);
    expect((await s.call('as.m.assess.getTaskList', { taskname: '期中', status: 'pending' }, school)).data.total).toBe(0);
    expect((await s.call('as.m.assess.getFormInfoByPlanCode', { plancode: 'PL-S1' }, school)).data).toMatchObject({ plancode: 'PL-S1', appid: '000000002' });
    expect((await audits('as.m.assess.insertAssessTask')).map((a) => a.detail)).toEqual([{ taskid, target: 'I0001', plancode: 'PL-S1', teams: 2 }]);
  });

  it('gives every roster member a personal code once; the roster shows their state; only an unanswered person can be taken off', async () => {
    const { taskid } = await newTask('月考筛查', [classA, classB]);
    const given = await s.call('as.m.assess.insertAssessTeamRosterTask', { taskid }, school);
    expect(given.data).toEqual({ issued: 3, total: 3 });
    expect((await s.call('as.m.assess.insertAssessTeamRosterTask', { taskid }, school)).data).toEqual({ issued: 0, total: 3 });
    const late = await addMember(classB, 'B02', '李二');
    expect((await s.call('as.m.assess.insertAssessTeamRosterTask', { taskid }, school)).data).toEqual({ issued: 1, total: 4 });

    let rows = await taskRoster(taskid);
    expect(rows.map((r) => `${r.teamname}/${r.studentno}/${r.realname}/${r.status}`).sort()).toEqual([
      '滨江一中 初一 1班/A01/王一/notstarted',
      '滨江一中 初一 1班/A02/王二/notstarted',
      '滨江一中 初一 2班/B01/李一/notstarted',
      '滨江一中 初一 2班/B02/李二/notstarted',
    ]);
    expect(rows[0]!.url).toBe(`/a/${rows[0]!.assesscode}`);
    // The personal code is a real one: the respondent opens it and is in progress.
    const wang = rows.find((r) => r.studentno === 'A01')!;
    const started = await s.call('as.c.exam.start', { assesscode: wang.assesscode }, undefined, { 'x-test-ip': '10.99.0.1' });
    expect(started.errorCode, started.errorMsg).toBe(0);
    expect(started.data).toMatchObject({ realname: '王一', planname: '新生心理普查' });
    rows = await taskRoster(taskid);
    expect(rows.find((r) => r.studentno === 'A01')!.status).toBe('inprogress');
    expect((await s.call('as.m.assess.getAssessTaskRoster', { taskid, teamid: classB }, school)).data.total).toBe(2);
    expect((await s.call('as.m.assess.getAssessTaskRoster', { taskid, realname: '王二' }, school)).data.total).toBe(1);

    const refused = await s.call('as.m.assess.deleteAssessTaskCUser', { taskid, cusercode: wang.cusercode }, school);
    expect(refused.errorCode).toBe(ErrorCode.conflict);
    expect(refused.errorMsg).toBe('该测评对象已开始作答，不能移出任务');
    const lateCode = rows.find((r) => r.cusercode === late)!.assesscode;
    expect((await s.call('as.m.assess.deleteAssessTaskCUser', { taskid, cusercode: late }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.assess.deleteAssessTaskCUser', { taskid, cusercode: late }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.c.exam.start', { assesscode: lateCode }, undefined, { 'x-test-ip': '10.99.0.2' })).errorCode).toBe(ErrorCode.notFound);
    expect((await taskRoster(taskid)).length).toBe(3);

    // Someone answered: the plan cannot change, the task cannot go, nor the team with the answer.
    const other = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '另一计划', stages: [{ stagecode: 'ST-S1' }], formcodes: [] }, school);
    expect(other.errorCode, other.errorMsg).toBe(0);
    const before = await fingerprint(s.database.db);
    const planChange = await s.call('as.m.assess.updateAssessTask', { taskid, plancode: other.data.plancode }, school);
    expect(planChange.errorCode).toBe(ErrorCode.conflict);
    expect(planChange.errorMsg).toBe('该任务已有人作答，不能更换测评计划');
    expect((await s.call('as.m.assess.deleteAssessTask', { taskid }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.assess.updateAssessTask', { taskid, teamids: [classB] }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.assess.updateAssessTask', { taskid, endat: at(TEST_EPOCH - 2 * HOUR) }, school)).errorCode).toBe(ErrorCode.validation);
    expect(await fingerprint(s.database.db)).toEqual(before);

    // What may change does: name, window, and a team without answers taken off (its codes withdrawn).
    expect((await s.call('as.m.assess.updateAssessTask', { taskid, taskname: '月考筛查（补）', teamids: [classA], endat: at(TEST_EPOCH + 48 * HOUR) }, school)).errorCode).toBe(0);
    const list = await s.call('as.m.assess.getTaskList', { taskname: '补' }, school);
    expect(list.data.rows[0]).toMatchObject({ taskid, endat: at(TEST_EPOCH + 48 * HOUR), rostercount: 2, issuedcount: 2, answeredcount: 1 });
    expect((await taskRoster(taskid)).map((r) => r.studentno).sort()).toEqual(['A01', 'A02']);
  });

  it('changes the plan of an unanswered task (codes given again), deletes it and refuses codes after the end', async () => {
    const { taskid } = await newTask('周测', [classA]);
    await s.call('as.m.assess.insertAssessTeamRosterTask', { taskid }, school);
    const old = (await taskRoster(taskid)).map((r) => r.assesscode);
    const other = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '周测计划', stages: [{ stagecode: 'ST-S2' }], formcodes: [] }, school);
    expect((await s.call('as.m.assess.updateAssessTask', { taskid, plancode: other.data.plancode }, school)).errorCode).toBe(0);
    expect(await taskRoster(taskid)).toEqual([]);
    expect((await s.call('as.m.assess.insertAssessTeamRosterTask', { taskid }, school)).data).toEqual({ issued: 2, total: 2 });
    const fresh = await taskRoster(taskid);
    expect(fresh.some((r) => old.includes(r.assesscode))).toBe(false);

    expect((await s.call('as.m.assess.deleteAssessTask', { taskid }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.assess.getAssessTaskRoster', { taskid }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.c.exam.start', { assesscode: fresh[0]!.assesscode }, undefined, { 'x-test-ip': '10.99.0.3' })).errorCode).toBe(ErrorCode.notFound);

    const ended = await newTask('上学期', [classA], TEST_EPOCH - 48 * HOUR, TEST_EPOCH - 24 * HOUR);
    const refused = await s.call('as.m.assess.insertAssessTeamRosterTask', { taskid: ended.taskid }, school);
    expect(refused.errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.assess.getTaskList', { status: 'ended' }, school)).data.rows.map((r: { taskname: string }) => r.taskname)).toEqual(['上学期']);
    expect((await audits('as.m.assess.deleteAssessTask')).map((a) => a.detail)).toEqual([{ taskid, withdrawn: 2 }]);
  });

  it('another institution’s task is not found by any action', async () => {
    await s.database.db.insert(team).values({ teamid: 'TMOTHER2', musercode: 'I0006', kind: 'class', appid: '000000002', school: '广州中学', grade: '初二', classname: '1班' });
    await s.database.db.insert(task).values({ taskid: 'TKOTHER', musercode: 'I0006', taskname: '别校', plancode: 'PL-S1', taskcode: 'OTHERTSK', startat: new Date(TEST_EPOCH - HOUR), endat: new Date(TEST_EPOCH + HOUR) });
    await s.database.db.insert(taskTeam).values({ taskid: 'TKOTHER', teamid: 'TMOTHER2' });
    const before = await fingerprint(s.database.db);
    for (const [name, body] of [
      ['as.m.assess.updateAssessTask', { taskid: 'TKOTHER', taskname: 'x' }],
      ['as.m.assess.deleteAssessTask', { taskid: 'TKOTHER' }],
      ['as.m.assess.insertAssessTeamRosterTask', { taskid: 'TKOTHER' }],
      ['as.m.assess.getAssessTaskRoster', { taskid: 'TKOTHER' }],
      ['as.m.assess.deleteAssessTaskCUser', { taskid: 'TKOTHER', cusercode: 'C1' }],
      ['as.m.assess.getTaskList', { musercode: 'I0006' }],
    ] as const)
      expect((await s.call(name, body, school)).errorCode, name).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.getTaskList', { taskname: '别校' }, school)).data.total).toBe(0);
    // A team of the caller's own cannot be swapped for another institution's.
    const { taskid } = await newTask('本校', [classA]);
    expect((await s.call('as.m.assess.updateAssessTask', { taskid, teamids: ['TMOTHER2'] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect(await fingerprint(s.database.db)).not.toEqual(before); // the new task only
  });
});
