import ExcelJS from 'exceljs';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { muserPermission } from '../accounts/tables.js';
import { auditLog } from '../audit/tables.js';
import { assessment } from '../assessments/tables.js';
import { classTask, gad7, ok } from './test-task.js';
import { consented } from '../../test/consent.js';

describe.each(engines())('task progress on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let provider: string;
  let hospital: string;
  let task: Awaited<ReturnType<typeof classTask>>;
  /** Signs in with the task's code, and takes the consent step (the classes are 初一: a guardian consents on the phone). */
  const enter = async (_classname: string, studentno: string, realname: string) => {
    const session = await ok(s.call('as.c.task.login', { taskcode: task.taskcode, studentno, realname }, undefined, { 'x-test-ip': `10.2.0.${studentno.slice(-2)}` }));
    await consented(s, session.token);
    return session;
  };
  const progress = (token = school) => s.call('as.m.assess.getAssessTaskProgress', { taskid: task.taskid }, token);
  const persons = (body: Record<string, unknown> = {}, token = school) =>
    s.call('as.m.assess.getAssessTaskRosterProgress', { taskid: task.taskid, page: 1, pageSize: 50, ...body }, token);
  const download = (body: Record<string, unknown>, token = school, lang = 'zh-CN') =>
    s.raw('as.m.assess.exportAssessTaskRosterProgress', JSON.stringify({ taskid: task.taskid, ...body }), { token, 'accept-language': lang });

  beforeAll(async () => {
    s = await startTestServer(engine);
    // The hospital (I0002, a sibling of the school under the provider) gets the task menu, so its refusals are about scope.
    await s.database.db.insert(muserPermission).values({ musercode: 'I0002', code: '00041' });
    [school, provider, hospital] = await Promise.all(['school', 'provider', 'hospital'].map(async (u) => (await s.login(u)).token));
    task = await classTask(s, school, {
      '1班': [
        ['01', '林小雨', '02'],
        ['02', '陈浩然', '01'],
        ['03', '=HYPERLINK("x")', '01'],
      ],
      '2班': [
        ['01', '王子涵', '02'],
        ['02', '赵一诺', '02'],
      ],
    });
    // 1班: one finished (an at-risk sheet), one in progress; 2班: one finished; the rest not started.
    await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7(4) }, (await enter('1班', '01', '林小雨')).token));
    await ok(s.call('as.c.exam.saveProgress', { formcode: 'GAD7', answers: gad7().slice(0, 2) }, (await enter('1班', '02', '陈浩然')).token));
    await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, (await enter('2班', '01', '王子涵')).token));
  });
  afterAll(() => s?.close());

  it('counts per task and per team; the finished count is that of the stored reports', async () => {
    const p = await progress();
    expect(p.errorCode, p.errorMsg).toBe(0);
    expect(p.data).toEqual({
      taskid: task.taskid,
      status: 'running',
      total: 5,
      notstarted: 2,
      inprogress: 1,
      finished: 2,
      // 初一 pupils are under 14: those who have not signed in have no guardian's consent yet.
      consentmissing: 2,
      teams: [
        { teamid: task.teamids['1班'], teamname: '滨江第一中学 初一 1班', total: 3, notstarted: 1, inprogress: 1, finished: 1, consentmissing: 1 },
        { teamid: task.teamids['2班'], teamname: '滨江第一中学 初一 2班', total: 2, notstarted: 1, inprogress: 0, finished: 1, consentmissing: 1 },
      ],
    });
    const codes = Object.values(task.codes).flatMap((c) => Object.values(c));
    const [reports] = await s.database.db.select({ n: count() }).from(assessment).where(and(inArray(assessment.assesscode, codes), eq(assessment.formcode, 'GAD7')));
    expect(Number(reports!.n)).toBe(p.data.finished);
    // A submission moves the counts at once (what the page's refetch shows).
    await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7(2) }, (await enter('2班', '02', '赵一诺')).token));
    expect((await progress()).data).toMatchObject({ notstarted: 1, finished: 3, consentmissing: 1, teams: [{ finished: 1 }, { notstarted: 0, finished: 2, consentmissing: 0 }] });
  });

  it('lists the persons by team and number, filtered by team, state and name', async () => {
    const all = await persons();
    expect(all.data.total).toBe(5);
    expect(all.data.rows.map((r: { teamname: string; studentno: string; status: string }) => `${r.teamname.split(' ')[2]}${r.studentno}:${r.status}`)).toEqual([
      '1班01:finished',
      '1班02:inprogress',
      '1班03:notstarted',
      '2班01:finished',
      '2班02:finished',
    ]);
    expect(all.data.rows[0]).toMatchObject({ realname: '林小雨', startedat: expect.any(String), finishedat: expect.any(String) });
    expect(all.data.rows[2]).toMatchObject({ startedat: null, finishedat: null, consent: 'guardianmissing' });
    expect(all.data.rows.map((r: { consent: string }) => r.consent)).toEqual(['given', 'given', 'guardianmissing', 'given', 'given']);
    expect((await persons({ teamid: task.teamids['1班'], status: 'unfinished' })).data.rows.map((r: { studentno: string }) => r.studentno)).toEqual(['02', '03']);
    expect((await persons({ status: 'finished', realname: '王' })).data).toMatchObject({ total: 1, rows: [{ realname: '王子涵' }] });
    expect((await persons({ page: 2, pageSize: 2 })).data.rows.map((r: { realname: string }) => r.realname)).toEqual(['=HYPERLINK("x")', '王子涵']);
  });

  it('exports who has not finished, by class, escaped and audited', async () => {
    const res = await download({ status: 'unfinished' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = wb.worksheets[0]!.getSheetValues().slice(1).map((r) => (r as unknown[]).slice(1, 5));
    expect(rows).toEqual([
      ['班级/团体', '学号', '姓名', '进度'],
      ['滨江第一中学 初一 1班', '02', '陈浩然', '进行中'],
      ['滨江第一中学 初一 1班', '03', `'=HYPERLINK("x")`, '未开始'],
    ]);
    const en = await download({ teamid: task.teamids['2班'] }, school, 'en-US');
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(en.rawPayload as unknown as ArrayBuffer);
    expect(wb2.worksheets[0]!.getRow(1).getCell(4).value).toBe('Progress');
    expect(wb2.worksheets[0]!.rowCount).toBe(3);
    const audits = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'as.m.assess.exportAssessTaskRosterProgress'));
    expect(audits.map((a) => a.detail)).toEqual([
      expect.objectContaining({ taskid: task.taskid, status: 'unfinished', rows: 2 }),
      expect.objectContaining({ taskid: task.taskid, teamid: task.teamids['2班'], rows: 2 }),
    ]);
  });

  it('another institution’s task is not found; the provider over the school sees it', async () => {
    expect((await progress(hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await persons({}, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await download({}, hospital)).json().errorCode).toBe(ErrorCode.notFound);
    expect((await progress(provider)).data.total).toBe(5);
    // A team of another task is not one of this task's.
    const other = await classTask(s, school, { '9班': [['01', '孙悦', '02']] });
    expect((await persons({ teamid: other.teamids['9班'] })).errorCode).toBe(ErrorCode.notFound);
  });
});
