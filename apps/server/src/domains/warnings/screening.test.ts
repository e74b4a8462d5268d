/**
 * Issue 31 §1 end to end: a respondent's submitted sheet raises the warning level its definition's
 * rules name (MHT item 85: critical; SCL-90 screen positive by "其他" alone: attention), and the
 * institution's scoring convention (SDS rounded) is applied at scoring time and kept with the report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, type FormDefinition } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { consented, TEST_SIGNATURE } from '../../test/consent.js';
import { assessment } from '../assessments/tables.js';
import { formConvention } from '../scales/tables.js';
import { warning } from './tables.js';

describe.each(engines())('screening rules, crisis items and scoring conventions of a submitted sheet on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let ip = 0;
  const copies: Record<string, string> = {};

  /** A copy of a built-in form with its wording entered (built-in SDS, SCL-90 and MHT carry none). */
  async function wordedCopy(formcode: string): Promise<string> {
    const copied = await s.call('as.m.assess.forms.copyForm', { formcode }, school);
    expect(copied.errorCode, copied.errorMsg).toBe(0);
    const code: string = copied.data.formcode;
    const got = await s.call('as.m.assess.forms.getForm', { formcode: code }, school);
    const { formcode: _c, version: _v, ...body } = got.data.definition as FormDefinition;
    const definition = {
      ...body,
      appids: ['000000002'],
      fulltext: true,
      questions: body.questions.map((q) => ({ ...q, text: { zh: `授权题目${q.no}`, en: `Licensed item ${q.no}` } })),
    };
    const saved = await s.call('as.m.assess.forms.updateForm', { formcode: code, revision: got.data.revision, definition }, school);
    expect(saved.errorCode, saved.errorMsg).toBe(0);
    return code;
  }

  /** A person given the three copies, answering `formcode` with an option per question number. */
  async function submit(realname: string, formcode: string, option: (no: number) => number, count: number) {
    const person = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname, gender: '02' }, school);
    expect(person.errorCode, person.errorMsg).toBe(0);
    const plan = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: `规则${realname}`, formcodes: [formcode] }, school);
    expect(plan.errorCode, plan.errorMsg).toBe(0);
    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode: person.data.cusercode, plancode: plan.data.plancode }, school);
    expect(given.errorCode, given.errorMsg).toBe(0);
    const started = await s.call('as.c.exam.start', { assesscode: given.data.assesscode }, undefined, { 'x-test-ip': `10.9.0.${++ip}` });
    expect(started.errorCode, started.errorMsg).toBe(0);
    const token = await consented(s, started.data.token);
    expect((await s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, token)).errorCode).toBe(0);
    const answers = Array.from({ length: count }, (_, i) => ({ no: i + 1, option: option(i + 1) }));
    const res = await s.call('as.c.exam.submit', { formcode, answers }, token);
    expect(res.errorCode, res.errorMsg).toBe(0);
    const reportid: string = res.data.reportid;
    const [report] = await s.database.db.select().from(assessment).where(eq(assessment.assessid, reportid));
    const warnings = await s.database.db.select().from(warning).where(eq(warning.assessid, reportid));
    return { report: report!, warnings: warnings.map((w) => ({ kind: w.kind, level: w.level })) };
  }

  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    for (const f of ['SDS', 'SCL90', 'MHT']) copies[f] = await wordedCopy(f);
  });
  afterAll(() => s?.close());

  it('MHT: "yes" to item 85 with every other item "no" raises a critical crisis-item warning', async () => {
    const { report, warnings } = await submit('甲', copies.MHT, (no) => (no === 85 ? 1 : 2), 100);
    expect(report.mentalstate).toBe(1); // total 1: normal
    expect(warnings).toEqual([{ kind: 'critical_item', level: 'critical' }]);
  });

  it('SCL-90: "其他" alone at 2.00 (its 7 items "a little bit") raises an attention-level screening warning', async () => {
    const other = new Set([19, 44, 59, 60, 64, 66, 89]);
    const { report, warnings } = await submit('乙', copies.SCL90, (no) => (other.has(no) ? 2 : 1), 90);
    expect(warnings).toEqual([{ kind: 'screening', level: 'attention' }]);
    const scores = report.scores as { indicators: { code: string; score: number }[] };
    const by = Object.fromEntries(scores.indicators.map((i) => [i.code, i.score]));
    expect([by.TOTAL, by.PCOUNT, by.NCOUNT, by.PSDI, by.OTH]).toEqual([97, 7, 83, 2, 2]);
  });

  it('the institution chooses the SDS convention: a bad choice is refused and changes nothing; the chosen one scores and is kept', async () => {
    const listed = await s.call('as.m.assess.forms.getConventions', {}, school);
    expect(listed.errorCode, listed.errorMsg).toBe(0);
    const sds = listed.data.forms.find((f: { formcode: string }) => f.formcode === copies.SDS);
    expect(sds).toMatchObject({ code: 'cn53-int' });
    expect(sds.conventions.map((c: { code: string }) => c.code)).toEqual(['cn53-int', 'cn53-round', 'cut50-int', 'cut50-round']);
    expect(listed.data.forms.map((f: { formcode: string }) => f.formcode)).toEqual(expect.arrayContaining(['SAS', 'SDS']));

    const bad = await s.call('as.m.assess.forms.setConvention', { formcode: copies.SDS, code: 'nope' }, school);
    expect(bad.errorCode).toBe(ErrorCode.validation);
    expect(bad.errorMsg).toContain('nope');
    expect(await s.database.db.select().from(formConvention)).toEqual([]);

    const set = await s.call('as.m.assess.forms.setConvention', { formcode: copies.SDS, code: 'cn53-round' }, school);
    expect(set.errorCode, set.errorMsg).toBe(0);
    expect((await s.call('as.m.assess.forms.getConventions', {}, school)).data.forms.find((f: { formcode: string }) => f.formcode === copies.SDS).code).toBe('cn53-round');

    // Items 1, 2, 3, 4, 7, 8, 9, 10, 13 at 3, item 15 at 4, item 19 at 1, the others at 2: raw 50;
    // 50 x 1.25 = 62.5 rounds to 63: moderate (a warning band, attention), where truncation gives 62.
    const reversed = new Set([2, 5, 6, 11, 12, 14, 16, 17, 18, 20]);
    const scoreOf = (no: number) => ([1, 2, 3, 4, 7, 8, 9, 10, 13].includes(no) ? 3 : no === 15 ? 4 : no === 19 ? 1 : 2);
    const { report, warnings } = await submit('丙', copies.SDS, (no) => (reversed.has(no) ? 5 - scoreOf(no) : scoreOf(no)), 20);
    const scores = report.scores as { indicators: { code: string; score: number }[]; convention: { code: string; name: { zh: string } } };
    expect(scores.indicators.find((i) => i.code === 'STD')!.score).toBe(63);
    expect(scores.convention.code).toBe('cn53-round');
    expect(scores.convention.name.zh).toContain('四舍五入');
    expect(warnings).toEqual([{ kind: 'band', level: 'attention' }]);

    // The try-it panel scores as the institution does.
    const answers = Array.from({ length: 20 }, (_, i) => ({ no: i + 1, option: reversed.has(i + 1) ? 5 - scoreOf(i + 1) : scoreOf(i + 1) }));
    const preview = await s.call('as.m.assess.forms.previewScore', { formcode: copies.SDS, answers }, school);
    expect(preview.errorCode, preview.errorMsg).toBe(0);
    expect(preview.data.convention.code).toBe('cn53-round');
    expect(preview.data.indicators.find((i: { code: string }) => i.code === 'STD').score).toBe(63);
  });
});
