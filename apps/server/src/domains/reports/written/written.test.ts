/**
 * The AI individual report through the API (menu 001802): generate as background work, run the
 * due jobs on the test clock, review, edit, approve, withdraw and retry; the respondent sees only an
 * approved text; another institution's person or report is not found; the LLM writer's request
 * carries none of the person's identifying values; a failing endpoint leaves a clear failed state.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { testConfig } from '../../../config.js';
import { engines, startTestServer, type TestServer } from '../../../test/harness.js';
import { goodAnswer, startFakeLlm } from './fake-llm.js';
import { WRITTEN_JOB } from './store.js';
import { consented, TEST_SIGNATURE } from '../../../test/consent.js';

const sheet = (scores: number[]) => scores.map((s, i) => ({ no: i + 1, option: s + 1 }));
const PHONE = '13912345678';
const IDCARD = '11010519491231002X';

describe.each(engines())('AI individual report on %s', (engine) => {
  let s: TestServer;
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let school: string, hospital: string;
  let plan: string;
  let ip = 0;

  beforeAll(async () => {
    fake = await startFakeLlm();
    s = await startTestServer(engine, {
      config: { aiReport: { baseUrl: fake.baseUrl, apiKey: 'test-key', model: 'fake-model', timeoutMs: 2000 } },
    });
    school = (await s.login('school')).token;
    const res = await s.call(
      'as.m.exam.plan.insertMUserExamPlan',
      { appid: '000000002', planname: '情绪筛查', formcodes: ['PHQ9', 'GAD7'] },
      school,
    );
    expect(res.errorCode, res.errorMsg).toBe(0);
    plan = res.data.plancode;
  });
  beforeEach(async () => {
    [school, hospital] = await Promise.all(['school', 'hospital'].map(async (u) => (await s.login(u)).token));
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  /** A person of the school who answered PHQ-9 and GAD-7 with these item scores; answers the respondent token. */
  async function assessed(realname: string, phq: number[], gad: number[], extra: Record<string, string> = {}) {
    const person = await s.call(
      'as.m.cuser.insertCUser',
      { appid: '000000002', realname, gender: '02', birthdate: '2010-03-04', ...extra },
      school,
    );
    expect(person.errorCode, person.errorMsg).toBe(0);
    const cusercode: string = person.data.cusercode;
    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan }, school);
    const started = await s.call('as.c.exam.start', { assesscode: given.data.assesscode }, undefined, { 'x-test-ip': `10.9.0.${++ip}` });
    const token: string = await consented(s, started.data.token);
    await s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, token);
    const a = await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(phq) }, token);
    const b = await s.call('as.c.exam.submit', { formcode: 'GAD7', answers: sheet(gad) }, token);
    expect([a.errorCode, b.errorCode]).toEqual([0, 0]);
    return { cusercode, token, reportids: [a.data.reportid as string, b.data.reportid as string] };
  }

  const rowOf = async (realname: string) => {
    const page = await s.call('as.m.report.getAsai1UserReportPageList', { realname, page: 1, pageSize: 10 }, school);
    expect(page.errorCode, page.errorMsg).toBe(0);
    return page.data.rows[0];
  };

  it('generates through a background job, then staff edit, approve and withdraw; the respondent sees only the approved text', async () => {
    const p = await assessed('危机甲', [3, 3, 3, 3, 2, 2, 2, 2, 2], [1, 1, 1, 0, 0, 0, 0]);
    expect(await rowOf('危机甲')).toMatchObject({
      cusercode: p.cusercode,
      state: 'none',
      writtenid: null,
      reportcount: 2,
      appname: '青少年学生',
    });

    const gen = await s.call('as.m.report.generateAsai1UserReport', { cusercodes: [p.cusercode] }, school);
    expect(gen.errorCode, gen.errorMsg).toBe(0);
    const [writtenid] = gen.data.writtenids;
    expect(await rowOf('危机甲')).toMatchObject({ writtenid, state: 'queued', writer: 'rules', model: 'rules-1', progress: 0 });
    // Asked again while queued: skipped, not queued twice.
    const again = await s.call('as.m.report.generateAsai1UserReport', { cusercodes: [p.cusercode] }, school);
    expect(again.data).toEqual({ writtenids: [], skipped: [{ cusercode: p.cusercode, reason: 'inprogress' }] });
    expect((await s.call('as.m.report.getAsai1BatchProgress', { writtenids: [writtenid] }, school)).data).toMatchObject({
      total: 1,
      queued: 1,
      percent: 0,
    });

    expect(await s.jobs.runDue([WRITTEN_JOB])).toBeGreaterThanOrEqual(1);
    expect(await rowOf('危机甲')).toMatchObject({ state: 'draft', progress: 100, error: null });
    expect((await s.call('as.m.report.getAsai1BatchProgress', { writtenids: [writtenid] }, school)).data).toEqual({
      total: 1,
      queued: 0,
      writing: 0,
      written: 1,
      failed: 0,
      percent: 100,
    });

    const detail = await s.call('as.m.report.getAsai1UserReport', { writtenid }, school);
    expect(detail.errorCode, detail.errorMsg).toBe(0);
    expect(detail.data).toMatchObject({
      state: 'draft',
      writer: 'rules',
      model: 'rules-1',
      lang: 'zh-CN',
      realname: '危机甲',
      createdat: s.clock.now().toISOString(),
    });
    expect(detail.data.sections.risk.level).toBe('urgent');
    expect(detail.data.sections.staffsteps[0]).toMatch(/^今天内转介/);
    expect(detail.data.sources.map((x: { reportid: string }) => x.reportid).sort()).toEqual([...p.reportids].sort());

    // Not approved yet: the respondent sees no written text.
    expect((await s.call('as.c.exam.getResult', { reportid: p.reportids[0] }, p.token)).data.written).toBeNull();

    const sections = { ...detail.data.sections, personmessage: '老师会尽快联系你。' };
    s.clock.advance(60_000);
    expect((await s.call('as.m.report.updateAsai1UserReport', { writtenid, sections }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.report.approveAsai1UserReport', { writtenid }, school)).errorCode).toBe(0);
    const approved = (await s.call('as.m.report.getAsai1UserReport', { writtenid }, school)).data;
    expect(approved).toMatchObject({
      state: 'approved',
      editedby: 'I0001',
      approvedby: 'I0001',
      approvedbyname: '滨江第一中学',
      editedat: s.clock.now().toISOString(),
      writer: 'rules',
    });

    const seen = await s.call('as.c.exam.getResult', { reportid: p.reportids[1] }, p.token);
    expect(seen.data.written).toEqual({
      message: '老师会尽快联系你。',
      steps: sections.personsteps,
      lang: 'zh-CN',
      approvedat: s.clock.now().toISOString(),
    });

    // Approved text cannot be edited or approved again; withdrawing hides it from the respondent.
    const edit = await s.call('as.m.report.updateAsai1UserReport', { writtenid, sections }, school, { 'accept-language': 'en-US' });
    expect([edit.errorCode, edit.errorMsg]).toEqual([ErrorCode.conflict, 'Only a draft can be edited']);
    expect((await s.call('as.m.report.approveAsai1UserReport', { writtenid }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.report.withdrawAsai1UserReport', { writtenid }, school)).errorCode).toBe(0);
    expect((await s.call('as.c.exam.getResult', { reportid: p.reportids[0] }, p.token)).data.written).toBeNull();
    expect(await rowOf('危机甲')).toMatchObject({ state: 'draft' });
  });

  it('a normal person gets a normal report; a person without results is skipped', async () => {
    const p = await assessed('平稳乙', [0, 1, 0, 0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0]);
    const empty = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname: '未测丙', gender: '01' }, school);
    const gen = await s.call(
      'as.m.report.generateAsai1UserReport',
      { cusercodes: [p.cusercode, empty.data.cusercode], lang: 'en-US' },
      school,
    );
    expect(gen.data.skipped).toEqual([{ cusercode: empty.data.cusercode, reason: 'noreports' }]);
    await s.jobs.runDue([WRITTEN_JOB]);
    const text = (await s.call('as.m.report.getAsai1UserReport', { writtenid: gen.data.writtenids[0] }, school)).data;
    expect(text).toMatchObject({ lang: 'en-US', state: 'draft' });
    expect(text.sections.risk.level).toBe('none');
    expect(text.sections.staffsteps).toEqual(['No action needed beyond routine screening.']);
    // Only persons with results are listed; the state filter finds the draft.
    const drafts = await s.call('as.m.report.getAsai1UserReportPageList', { state: 'draft', page: 1, pageSize: 50 }, school);
    expect(drafts.data.rows.map((r: { realname: string }) => r.realname)).toContain('平稳乙');
    const none = await s.call('as.m.report.getAsai1UserReportPageList', { realname: '未测丙' }, school);
    expect(none.data.total).toBe(0);
  });

  it('another institution’s person and written report are not found', async () => {
    const p = await assessed('隔离丁', [1, 1, 1, 1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 1, 1]);
    const { writtenids } = (await s.call('as.m.report.generateAsai1UserReport', { cusercodes: [p.cusercode] }, school)).data;
    await s.jobs.runDue([WRITTEN_JOB]);
    for (const [name, body] of [
      ['as.m.report.generateAsai1UserReport', { cusercodes: [p.cusercode] }],
      ['as.m.report.getAsai1UserReport', { writtenid: writtenids[0] }],
      ['as.m.report.getAsai1UserReportHistory', { cusercode: p.cusercode }],
      ['as.m.report.approveAsai1UserReport', { writtenid: writtenids[0] }],
      ['as.m.report.getAsai1BatchProgress', { writtenids }],
    ] as const) {
      expect((await s.call(name, body, hospital)).errorCode, name).toBe(ErrorCode.notFound);
    }
    expect((await s.call('as.m.report.getAsai1UserReportPageList', { realname: '隔离丁' }, hospital)).data.total).toBe(0);
    expect((await s.call('as.m.report.getAsai1UserReport', { writtenid: writtenids[0] }, school)).data.state).toBe('draft');
  });

  it('the LLM writer: its request carries nothing that identifies the person; a failing endpoint leaves a failed report with a retry', async () => {
    const p = await assessed('张三丰', [2, 2, 2, 1, 1, 1, 1, 0, 0], [2, 2, 1, 1, 1, 0, 0], { phonenumber: PHONE, idcard: IDCARD });
    fake.set({ kind: 'status', status: 500 });
    const before = fake.bodies.length;
    const { writtenids } = (await s.call('as.m.report.generateAsai1UserReport', { cusercodes: [p.cusercode], writer: 'llm' }, school)).data;
    const [writtenid] = writtenids;
    expect(await s.jobs.runDue([WRITTEN_JOB])).toBe(1);
    // One automatic retry after a backoff; until then the report waits, with the error shown.
    expect(await rowOf('张三丰')).toMatchObject({
      state: 'queued',
      error: 'the AI endpoint answered HTTP 500',
      writer: 'llm',
      model: 'fake-model',
    });
    s.clock.advance(60_000);
    expect(await s.jobs.runDue([WRITTEN_JOB])).toBe(1);
    const failed = (await s.call('as.m.report.getAsai1UserReport', { writtenid }, school)).data;
    expect(failed).toMatchObject({ state: 'failed', error: 'the AI endpoint answered HTTP 500', sections: null, writtenat: null });
    expect((await s.call('as.m.report.approveAsai1UserReport', { writtenid }, school)).errorCode).toBe(ErrorCode.conflict);

    // A malformed answer is a failure too, never a text.
    fake.set({ kind: 'ok', content: 'not json at all' });
    expect((await s.call('as.m.report.retryAsai1UserReport', { writtenid }, school)).errorCode).toBe(0);
    await s.jobs.runDue([WRITTEN_JOB]);
    s.clock.advance(60_000);
    await s.jobs.runDue([WRITTEN_JOB]);
    expect((await s.call('as.m.report.getAsai1UserReport', { writtenid }, school)).data).toMatchObject({
      state: 'failed',
      sections: null,
      error: 'the AI endpoint answered text that is not JSON',
    });

    fake.set({ kind: 'ok', content: goodAnswer('high') });
    expect((await s.call('as.m.report.retryAsai1UserReport', { writtenid }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.report.retryAsai1UserReport', { writtenid }, school)).errorCode).toBe(ErrorCode.conflict);
    await s.jobs.runDue([WRITTEN_JOB]);
    const done = (await s.call('as.m.report.getAsai1UserReport', { writtenid }, school)).data;
    expect(done).toMatchObject({
      state: 'draft',
      writer: 'llm',
      model: 'fake-model',
      error: null,
      sections: { summary: 'LLM summary.', risk: { level: 'high' } },
    });

    const sent = fake.bodies.slice(before).join('\n');
    expect(fake.bodies.length - before).toBe(5);
    for (const secret of ['张三丰', PHONE, IDCARD, p.cusercode, 'I0001', '2010-03-04', ...p.reportids]) expect(sent).not.toContain(secret);
    const profile = JSON.parse(JSON.parse(fake.bodies.at(-1)!).messages[1].content).profile;
    expect(profile).toEqual({ population: '青少年学生', populationapp: '000000002', gender: 'female', ageband: '15-17' });
  });

  it('the writers offered, and an LLM asked for where none is configured is refused', async () => {
    expect((await s.call('as.m.report.getAsai1Writers', {}, school)).data).toEqual({
      default: 'rules',
      writers: [
        { writer: 'rules', model: 'rules-1' },
        { writer: 'llm', model: 'fake-model' },
      ],
    });
    // The same database and sessions, on an app whose server has no LLM configured.
    const bare = await s.appOnTestClock({ config: testConfig() });
    try {
      const p = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname: '无配置', gender: '01' }, school);
      const res = await bare.inject({
        method: 'POST',
        url: '/api/as.m.report.generateAsai1UserReport/1.0.0/action',
        headers: { 'content-type': 'application/json', token: school, 'accept-language': 'en-US' },
        payload: { cusercodes: [p.data.cusercode], writer: 'llm' },
      });
      expect([res.json().errorCode, res.json().errorMsg]).toEqual([
        ErrorCode.validation,
        'The AI writer is not configured on this server (AI_REPORT_BASE_URL, AI_REPORT_MODEL)',
      ]);
    } finally {
      await bare.close();
    }
  });
});

describe('demo data', () => {
  it('seeds approved and draft written reports through the job path', async () => {
    const s = await startTestServer('pglite', { demoReports: true });
    try {
      const school = (await s.login('school')).token;
      const approved = await s.call('as.m.report.getAsai1UserReportPageList', { state: 'approved', page: 1, pageSize: 50 }, school);
      const drafts = await s.call('as.m.report.getAsai1UserReportPageList', { state: 'draft', page: 1, pageSize: 50 }, school);
      expect([approved.data.total, drafts.data.total]).toEqual([2, 3]);
      expect(approved.data.rows[0]).toMatchObject({ writer: 'rules', model: 'rules-1', state: 'approved', progress: 100 });
    } finally {
      await s.close();
    }
  });
});
