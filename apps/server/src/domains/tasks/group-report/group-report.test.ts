/**
 * The AI group report through the API (menu 00043): its figures match the stored reports of the
 * task's personal codes; a team filter narrows them; the previous task of the same teams is
 * compared; the attention list masks names and links to the warning case; the written summary is
 * queued, written by a job and approved; the LLM writer is sent aggregates only; another
 * institution's task is not found; hiding a team's reports hides exactly them.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { testConfig } from '../../../config.js';
import { engines, startTestServer, TEST_EPOCH, type TestServer } from '../../../test/harness.js';
import { assessment } from '../../assessments/tables.js';
import { startFakeLlm } from '../../reports/written/fake-llm.js';
import { assessmentIndicator } from '../../reports/tables.js';
import { task, taskPerson, taskTeam, team } from '../tables.js';
import { consented, TEST_SIGNATURE } from '../../../test/consent.js';

const sheet = (scores: number[]) => scores.map((s, i) => ({ no: i + 1, option: s + 1 }));
const PHONE = '13912345678';
const day = (n: number) => new Date(TEST_EPOCH + n * 86_400_000);

describe.each(engines())('AI group report on %s', (engine) => {
  let s: TestServer;
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let school: string, provider: string;
  let plan: string;
  let ip = 0;
  const people: Record<string, { cusercode: string; assesscode: string }> = {};

  beforeAll(async () => {
    fake = await startFakeLlm();
    s = await startTestServer(engine, {
      config: {
        aiReport: { baseUrl: fake.baseUrl, apiKey: 'k', model: 'fake-model', timeoutMs: 2000 },
        chromiumPath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      },
    });
    [school, provider] = await Promise.all(['school', 'provider'].map(async (u) => (await s.login(u)).token));
    plan = (await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '团体筛查', formcodes: ['PHQ9', 'GAD7'] }, school)).data
      .plancode;
    const db = s.database.db;
    await db.insert(team).values([
      { teamid: 'TMG1', musercode: 'I0001', kind: 'class', appid: '000000002', school: '一中', grade: '初一', classname: '1班' },
      { teamid: 'TMG2', musercode: 'I0001', kind: 'class', appid: '000000002', school: '一中', grade: '初一', classname: '2班' },
      { teamid: 'TMG3', musercode: 'I0001', kind: 'class', appid: '000000002', school: '一中', grade: '初二', classname: '1班' },
    ]);
    await db.insert(task).values([
      // Open while its results are entered (every respondent step checks the task's window), ended below.
      { taskid: 'TKPREV', musercode: 'I0001', taskname: '春季筛查', plancode: plan, taskcode: 'PREVCODE', startat: day(-60), endat: day(5) },
      { taskid: 'TKNOW', musercode: 'I0001', taskname: '秋季筛查', plancode: plan, taskcode: 'NOWCODE1', startat: day(-1), endat: day(5) },
    ]);
    await db.insert(taskTeam).values([
      { taskid: 'TKPREV', teamid: 'TMG1' },
      { taskid: 'TKNOW', teamid: 'TMG1' },
      { taskid: 'TKNOW', teamid: 'TMG2' },
      { taskid: 'TKNOW', teamid: 'TMG3' },
    ]);
    // phq/gad: item scores; null: not answered; 'started': signed in without finishing.
    const plan1: [string, string, string, number[] | null | 'started', number[] | null][] = [
      ['TKNOW', 'TMG1', '危机甲', [3, 3, 3, 3, 3, 3, 3, 3, 2], [3, 3, 3, 3, 3, 3, 3]],
      ['TKNOW', 'TMG1', '平安乙', [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]],
      ['TKNOW', 'TMG1', '未到丙', null, null],
      ['TKNOW', 'TMG2', '轻度丁', [1, 1, 1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0, 0]],
      ['TKNOW', 'TMG2', '半途戊', 'started', null],
      ['TKNOW', 'TMG3', '中度己', [2, 2, 2, 1, 1, 1, 1, 1, 0], [2, 2, 2, 1, 1, 1, 1]],
      ['TKPREV', 'TMG1', '危机甲', [0, 0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]],
      ['TKPREV', 'TMG1', '平安乙', [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]],
    ];
    for (const [taskid, teamid, realname, phq, gad] of plan1) {
      let cusercode = people[realname]?.cusercode;
      if (!cusercode) {
        const made = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname, gender: '01', phonenumber: PHONE }, school);
        expect(made.errorCode, made.errorMsg).toBe(0);
        cusercode = made.data.cusercode as string;
      }
      const assesscode: string = (await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan }, school)).data.assesscode;
      await db.insert(taskPerson).values({ taskid, cusercode, teamid, studentno: realname, assesscode });
      if (taskid === 'TKNOW') people[realname] = { cusercode, assesscode };
      if (!phq) continue;
      const token: string = await consented(s, (await s.call('as.c.exam.start', { assesscode }, undefined, { 'x-test-ip': `10.7.0.${++ip}` })).data.token);
      await s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, token);
      if (phq === 'started') continue;
      expect((await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(phq) }, token)).errorCode).toBe(0);
      expect((await s.call('as.c.exam.submit', { formcode: 'GAD7', answers: sheet(gad!) }, token)).errorCode).toBe(0);
    }
    await db.update(task).set({ endat: day(-50) }).where(eq(task.taskid, 'TKPREV'));
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  /** The stored reports of a task's codes (of some teams): persons per level of one indicator, counted directly. */
  async function storedLevels(taskid: string, teamids: string[], formcode: string, code: string) {
    const rows = await s.database.db
      .select({ level: assessmentIndicator.level, n: sql<number>`count(*)::int` })
      .from(assessmentIndicator)
      .innerJoin(assessment, eq(assessment.assessid, assessmentIndicator.assessid))
      .innerJoin(taskPerson, eq(taskPerson.assesscode, assessment.assesscode))
      .where(
        and(eq(taskPerson.taskid, taskid), inArray(taskPerson.teamid, teamids), eq(assessmentIndicator.formcode, formcode), eq(assessmentIndicator.code, code)),
      )
      .groupBy(assessmentIndicator.level);
    return [0, 1, 2, 3, 4].map((l) => Number(rows.find((r) => r.level === l)?.n ?? 0));
  }

  it('reports participation, levels per indicator, classes, grades and the previous task as the stored reports say', async () => {
    const res = await s.call('as.m.assess.getGroupReport', { taskid: 'TKNOW' }, school);
    expect(res.errorCode, res.errorMsg).toBe(0);
    const r = res.data;
    expect(r.participation).toEqual({ members: 6, finished: 4, started: 1, notstarted: 1, rate: 66.7 });
    const phq = r.indicators.find((i: { formcode: string; code: string }) => i.formcode === 'PHQ9' && i.code === 'TOTAL');
    expect(phq.total).toBe(4);
    expect(phq.levels).toEqual(await storedLevels('TKNOW', ['TMG1', 'TMG2', 'TMG3'], 'PHQ9', 'TOTAL'));
    expect(phq.levels[4]).toBe(1);
    const gad = r.indicators.find((i: { formcode: string; code: string }) => i.formcode === 'GAD7' && i.code === 'TOTAL');
    expect(gad.levels).toEqual(await storedLevels('TKNOW', ['TMG1', 'TMG2', 'TMG3'], 'GAD7', 'TOTAL'));
    expect(r.byteam.map((t: { name: string; members: number; finished: number }) => [t.name, t.members, t.finished])).toEqual([
      ['一中 初一 1班', 3, 2],
      ['一中 初一 2班', 2, 1],
      ['一中 初二 1班', 1, 1],
    ]);
    expect(r.byteam[0].levels[4]).toBe(1);
    expect(r.byteam[0].warned).toBe(1);
    expect(r.bygrade.map((g: { name: string; members: number; finished: number }) => [g.name, g.members, g.finished])).toEqual([
      ['初一', 5, 3],
      ['初二', 1, 1],
    ]);
    expect(r.previous).toMatchObject({ taskid: 'TKPREV', participation: { members: 2, finished: 2 } });
    const prevPhq = r.previous.indicators.find((i: { formcode: string; code: string }) => i.formcode === 'PHQ9' && i.code === 'TOTAL');
    expect(prevPhq.levels).toEqual(await storedLevels('TKPREV', ['TMG1'], 'PHQ9', 'TOTAL'));
  });

  it('narrows to one team; lists who needs attention with masked names and their warning case', async () => {
    const r = (await s.call('as.m.assess.getGroupReport', { taskid: 'TKNOW', teamid: 'TMG1' }, school)).data;
    expect(r.teamid).toBe('TMG1');
    expect(r.teams).toHaveLength(3);
    expect(r.participation).toMatchObject({ members: 3, finished: 2, notstarted: 1 });
    expect(r.byteam).toHaveLength(1);
    expect(r.attention).toHaveLength(1);
    const a = r.attention[0];
    expect(a).toMatchObject({ cusercode: people['危机甲']!.cusercode, realname: '危*甲', teamid: 'TMG1', level: 4, warning: 1 });
    expect(a.caseid).toMatch(/^WC/);
    // Issue 28 item 11: the row says why the person is listed and the case's real state.
    expect(a.casekinds).toContain('critical_item');
    expect(a.casestate).toBe('open');
    const kase = await s.call('as.m.warning.getCase', { caseid: a.caseid }, school);
    expect(kase.data.case.cusercode).toBe(a.cusercode);
    expect(kase.data.warnings.some((w: { kind: string }) => w.kind === 'critical_item')).toBe(true);
    expect(JSON.stringify(r)).not.toContain('危机甲');
    expect(JSON.stringify(r)).not.toContain(PHONE);
  });

  it('refuses another institution’s task and a team the task does not have', async () => {
    // A task of the hospital (I0002), a sibling of the school under the same provider.
    await s.database.db.insert(team).values({ teamid: 'TMH1', musercode: 'I0002', kind: 'dept', appid: '000000003', deptname: '产科' });
    await s.database.db
      .insert(task)
      .values({ taskid: 'TKHOSP', musercode: 'I0002', taskname: '医院筛查', plancode: plan, taskcode: 'HOSPCODE', startat: day(-1), endat: day(5) });
    await s.database.db.insert(taskTeam).values({ taskid: 'TKHOSP', teamid: 'TMH1' });
    for (const name of ['as.m.assess.getGroupReport', 'as.m.assess.getGroupSummary', 'as.m.assess.generateGroupSummary', 'as.m.assess.getGroupReportDocument'] as const)
      expect((await s.call(name, { taskid: 'TKHOSP' }, school)).errorCode, name).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.showOrHiddenTeamReport', { taskid: 'TKHOSP', hidden: 1 }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.getGroupReport', { taskid: 'TKNOW', teamid: 'TMH1' }, school)).errorCode).toBe(ErrorCode.notFound);
    // The provider over both reads it.
    expect((await s.call('as.m.assess.getGroupReport', { taskid: 'TKHOSP' }, provider)).data.participation.members).toBe(0);
    expect((await s.call('as.m.assess.getGroupReport', { taskid: 'TKPREV', teamid: 'TMG2' }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('writes a rule-based summary as a job, approves it, and prints it with masked names', async () => {
    const gen = await s.call('as.m.assess.generateGroupSummary', { taskid: 'TKNOW' }, school);
    expect(gen.errorCode, gen.errorMsg).toBe(0);
    expect((await s.call('as.m.assess.generateGroupSummary', { taskid: 'TKNOW' }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.assess.getGroupSummary', { taskid: 'TKNOW' }, school)).data).toMatchObject({ state: 'queued', writer: 'rules' });
    expect((await s.call('as.m.assess.approveGroupSummary', { taskid: 'TKNOW' }, school)).errorCode).toBe(ErrorCode.conflict);
    await s.jobs.runDue();
    const draft = (await s.call('as.m.assess.getGroupSummary', { taskid: 'TKNOW' }, school)).data;
    expect(draft).toMatchObject({ summaryid: gen.data.summaryid, state: 'draft', model: 'group-rules-1' });
    expect(draft.sections.summary).toContain('完成 4 人');
    expect(draft.sections.risk.level).toBe('high');
    const before = (await s.call('as.m.assess.getGroupReportDocument', { taskid: 'TKNOW' }, school)).data.html as string;
    expect(before).not.toContain(draft.sections.summary);
    expect((await s.call('as.m.assess.approveGroupSummary', { taskid: 'TKNOW' }, school)).errorCode).toBe(0);
    const doc = await s.call('as.m.assess.getGroupReportDocument', { taskid: 'TKNOW' }, school);
    expect(doc.errorCode, doc.errorMsg).toBe(0);
    expect(doc.data.html).toContain(draft.sections.summary);
    expect(doc.data.html).toContain('危*甲');
    expect(doc.data.html).not.toContain('危机甲');
    expect(doc.data.html).toContain('<svg');
    expect(doc.data.pdf).toBe(true);
    const pdf = await s.raw('as.m.assess.exportGroupReportPdf', JSON.stringify({ taskid: 'TKNOW' }), { token: school });
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Nobody finished in the previous task's other teams: a team with no results has nothing to summarise.
    await s.database.db.insert(taskTeam).values({ taskid: 'TKPREV', teamid: 'TMG3' });
    expect((await s.call('as.m.assess.generateGroupSummary', { taskid: 'TKPREV', teamid: 'TMG3' }, school)).errorCode).toBe(ErrorCode.validation);
  });

  it('never sends the LLM a group with fewer than 5 finished (AI_MIN_CELL): the summary fails and says why', async () => {
    fake.set({ kind: 'ok', content: JSON.stringify({ summary: 'LLM group.', findings: ['x'], risk: { level: 'none', text: 'r' }, steps: ['s'] }) });
    fake.bodies.length = 0;
    // The class TMG1: two finished, one of them at level 4 with a warning.
    const gen = await s.call('as.m.assess.generateGroupSummary', { taskid: 'TKNOW', teamid: 'TMG1', writer: 'llm' }, school);
    expect(gen.errorCode, gen.errorMsg).toBe(0);
    await s.jobs.runDue();
    const got = (await s.call('as.m.assess.getGroupSummary', { taskid: 'TKNOW', teamid: 'TMG1' }, school)).data;
    expect(got).toMatchObject({ state: 'failed', error: expect.stringContaining('fewer than 5 finished') });
    expect(fake.bodies).toHaveLength(0);
  });

  it('sends the LLM writer aggregates only: no name, phone or code', async () => {
    fake.set({ kind: 'ok', content: JSON.stringify({ summary: 'LLM group.', findings: ['x'], risk: { level: 'none', text: 'r' }, steps: ['s'] }) });
    fake.bodies.length = 0;
    // A server whose minimum cell is 2 sends this class of two (a second later than the failed one, so it is the latest).
    s.clock.advance(1000);
    const app = await s.appOnTestClock({ config: testConfig({ aiReport: { baseUrl: fake.baseUrl, apiKey: 'k', model: 'fake-model', timeoutMs: 2000 }, aiMinCell: 2 }) });
    const gen = await s.call('as.m.assess.generateGroupSummary', { taskid: 'TKNOW', teamid: 'TMG1', writer: 'llm' }, school);
    expect(gen.errorCode, gen.errorMsg).toBe(0);
    try {
      await app.jobs.runDue();
    } finally {
      await app.close();
    }
    const got = (await s.call('as.m.assess.getGroupSummary', { taskid: 'TKNOW', teamid: 'TMG1' }, school)).data;
    expect(got, got.error).toMatchObject({ state: 'draft', writer: 'llm', model: 'fake-model' });
    expect(got.sections.summary).toBe('LLM group.');
    // The LLM's risk is never below the rules' (a severe person and a warning in the class).
    expect(got.sections.risk.level).toBe('high');
    expect(fake.bodies).toHaveLength(1);
    const body = fake.bodies[0]!;
    for (const [name, p] of Object.entries(people)) {
      expect(body).not.toContain(name);
      expect(body).not.toContain(p.cusercode);
      expect(body).not.toContain(p.assesscode);
    }
    expect(body).not.toContain(PHONE);
    expect(body).not.toContain('TMG1');
    expect(body).not.toContain('I0001');
    const sent = JSON.parse(JSON.parse(body).messages[1].content);
    expect(sent.participation).toEqual({ members: 3, finished: 2, rate: 66.7 });
  });

  it('hides and shows exactly the reports of one team', async () => {
    const hiddenOf = async (teamid: string) =>
      (
        await s.database.db
          .select({ hidden: assessment.hidden })
          .from(assessment)
          .innerJoin(taskPerson, eq(taskPerson.assesscode, assessment.assesscode))
          .where(and(eq(taskPerson.taskid, 'TKNOW'), eq(taskPerson.teamid, teamid)))
      ).map((r) => r.hidden);
    expect((await s.call('as.m.assess.showOrHiddenTeamReport', { taskid: 'TKNOW', teamid: 'TMG1', hidden: 1 }, school)).errorCode).toBe(0);
    expect(await hiddenOf('TMG1')).toEqual([1, 1, 1, 1]);
    expect(await hiddenOf('TMG2')).toEqual([0, 0]);
    const flags = await s.database.db.select().from(taskTeam).where(eq(taskTeam.taskid, 'TKNOW'));
    expect(Object.fromEntries(flags.map((f) => [f.teamid, f.reporthidden]))).toEqual({ TMG1: 1, TMG2: 0, TMG3: 0 });
    expect((await s.call('as.m.assess.showOrHiddenTeamReport', { taskid: 'TKNOW', hidden: 0 }, school)).errorCode).toBe(0);
    expect(await hiddenOf('TMG1')).toEqual([0, 0, 0, 0]);
  });

  it('puts each group mean against the form’s default norm (z, T and the source), and nothing where the form has none', async () => {
    const phqOf = (r: { indicators: { formcode: string; code: string; mean: number; norm?: unknown }[] }, formcode = 'PHQ9') =>
      r.indicators.find((i) => i.formcode === formcode && i.code === 'TOTAL')!;
    expect(phqOf((await s.call('as.m.assess.getGroupReport', { taskid: 'TKNOW' }, school)).data).norm).toBeNull();
    const admin = (await s.login('admin')).token;
    const made = await s.call(
      'as.m.assess.norm.insertNorm',
      {
        formcode: 'PHQ9',
        name: { zh: '测试常模', en: 'Test norm' },
        population: { zh: '测试人群', en: 'Test population' },
        samplesize: 500,
        year: 2020,
        source: '测试来源 2020',
        scales: [{ code: 'TOTAL', mean: 5, sd: 5 }],
        change: null,
        isdefault: 1,
      },
      admin,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    const r = (await s.call('as.m.assess.getGroupReport', { taskid: 'TKNOW' }, school)).data;
    // PHQ-9 totals 26, 0, 5 and 11: mean 10.5; z = (10.5 − 5) / 5 = 1.1, T = 50 + 10 · 1.1 = 61.
    expect(phqOf(r).mean).toBe(10.5);
    expect(phqOf(r).norm).toEqual({
      mean: 5,
      sd: 5,
      z: 1.1,
      t: 61,
      name: '测试常模',
      population: '测试人群',
      samplesize: 500,
      year: 2020,
      source: '测试来源 2020',
    });
    expect(phqOf(r, 'GAD7').norm).toBeNull();
    expect((await s.call('as.m.assess.norm.deleteNorm', { normid: made.data.normid }, admin)).errorCode).toBe(0);
  });
});
