import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { ErrorCode, type FormDefinition } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { formVersion, quotaOption } from './tables.js';
import { assessment } from '../assessments/tables.js';

const band = (min: number, max: number, level: number, label: string) => ({
  min,
  max,
  level,
  label: { zh: label, en: label },
  interpretation: { zh: `${label}解释`, en: '' },
  advice: { zh: `${label}建议`, en: '' },
  raisesWarning: false,
});

describe.each(engines())('quota options and comments on %s', (engine) => {
  let s: TestServer;
  let school: string, provider: string, teacher: string;
  let copy: string;
  const rows = async () => [Number((await s.database.db.select({ n: count() }).from(quotaOption))[0]!.n), Number((await s.database.db.select({ n: count() }).from(formVersion))[0]!.n)];
  const options = async (formcode: string, quotacode?: string) => (await s.call('as.m.assess.quota.getQuotaFormOptionList', { formcode, ...(quotacode ? { quotacode } : {}) }, school)).data;

  beforeAll(async () => {
    s = await startTestServer(engine);
    [school, provider, teacher] = await Promise.all(['school', 'provider', 'teacher'].map(async (u) => (await s.login(u)).token));
    // An own PHQ-9 with an extra factor (items 1-2, score 0-6) that the mental state does not use.
    const def = (await s.call('as.m.assess.forms.getForm', { formcode: 'PHQ9' }, school)).data.definition as FormDefinition;
    const { formcode: _c, version: _v, ...body } = def;
    body.indicators.push({ code: 'F1', name: { zh: '兴趣与情绪', en: 'Interest and mood' }, kind: 'factor', items: [1, 2], formula: { op: 'sum' }, transforms: [], precision: 0, bands: [band(0, 6, 0, '单段')] });
    copy = (await s.call('as.m.assess.forms.insertForm', { definition: body }, school)).data.formcode;
  });
  afterAll(() => s?.close());

  it('lists the bands of a built-in and of an own scale', async () => {
    const builtIn = await options('PHQ9');
    expect(builtIn.map((o: { band: { min: number; max: number } }) => `${o.band.min}-${o.band.max}`)).toEqual(['0-4', '5-9', '10-14', '15-19', '20-27']);
    expect(builtIn[0]).toMatchObject({ optionid: 'PHQ9-TOTAL-1', quotacode: 'TOTAL', quotaname: '总分', sort: 0, version: 1 });
    expect(builtIn[4].colour).toMatch(/^#/);
    expect(await options(copy, 'F1')).toHaveLength(1);
    expect((await options(copy)).length).toBe(6);
  });

  it('moves a cut-off with saveQuotaFormOptions, keeping band ids; single changes must keep the range tiled', async () => {
    const before = await options(copy, 'TOTAL');
    const ids = before.map((o: { optionid: string }) => o.optionid);
    const moved = before.map((o: { optionid: string; band: ReturnType<typeof band> }, i: number) => ({
      optionid: o.optionid,
      band: i === 0 ? { ...o.band, max: 5 } : i === 1 ? { ...o.band, min: 6 } : o.band,
    }));
    expect((await s.call('as.m.assess.quota.saveQuotaFormOptions', { formcode: copy, quotacode: 'TOTAL', options: moved }, school)).errorCode).toBe(0);
    const after = await options(copy, 'TOTAL');
    expect(after.map((o: { optionid: string }) => o.optionid)).toEqual(ids);
    expect(after[1].band.min).toBe(6);
    const preview = await s.call('as.m.assess.forms.previewScore', { formcode: copy, answers: [...[2, 2, 2, 2, 2].map((option, i) => ({ no: i + 1, option })), ...[1, 1, 1, 1].map((option, i) => ({ no: i + 6, option }))] }, school);
    expect(preview.data.indicators[0]).toMatchObject({ score: 5, band: 0 });

    const state = await rows();
    // A gap, an overlap, an unknown indicator, an unknown id: refused, nothing changed.
    expect((await s.call('as.m.assess.quota.updateQuotaFormOption', { optionid: ids[1], band: { min: 7 } }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.assess.quota.insertQuotaFormOption', { formcode: copy, quotacode: 'TOTAL', band: band(3, 4, 1, 'x') }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.assess.quota.insertQuotaFormOption', { formcode: copy, quotacode: 'NOPE', band: band(0, 1, 1, 'x') }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.quota.deleteQuotaFormOption', { optionid: ids[4] }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.assess.quota.saveQuotaFormOptions', { formcode: copy, quotacode: 'TOTAL', options: [{ optionid: 'QOUNKNOWN', band: band(0, 27, 0, 'x') }] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.quota.updateQuotaFormOption', { optionid: ids[1], band: { level: 9 } }, school)).errorCode).toBe(ErrorCode.validation);
    expect(await rows()).toEqual(state);
  });

  it('deletes, inserts and updates a band of a factor', async () => {
    const [only] = await options(copy, 'F1');
    expect((await s.call('as.m.assess.quota.deleteQuotaFormOption', { optionid: only.optionid }, school)).errorCode).toBe(0);
    expect(await options(copy, 'F1')).toHaveLength(0);
    const ins = await s.call('as.m.assess.quota.insertQuotaFormOption', { formcode: copy, quotacode: 'F1', band: { ...band(0, 6, 2, '需关注'), raisesWarning: true } }, school);
    expect(ins.errorCode).toBe(0);
    const upd = await s.call('as.m.assess.quota.updateQuotaFormOption', { optionid: ins.data.optionid, band: { colour: '#123456', label: { zh: '关注', en: 'Watch' } } }, school);
    expect(upd.errorCode).toBe(0);
    const [now] = await options(copy, 'F1');
    expect(now).toMatchObject({ optionid: ins.data.optionid, colour: '#123456', band: { level: 2, raisesWarning: true, label: { zh: '关注', en: 'Watch' } } });
  });

  it('refuses built-in bands, other institutions’ bands and callers without the codes', async () => {
    const state = await rows();
    const builtInId = 'PHQ9-TOTAL-1';
    expect((await s.call('as.m.assess.quota.updateQuotaFormOption', { optionid: builtInId, band: { label: { zh: 'x', en: '' } } }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.assess.quota.deleteQuotaFormOption', { optionid: builtInId }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.assess.quota.insertQuotaFormOption', { formcode: 'PHQ9', quotacode: 'TOTAL', band: band(0, 1, 0, 'x') }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.assess.quota.saveQuotaFormOptions', { formcode: 'PHQ9', quotacode: 'TOTAL', options: [] }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.assess.comment.updateComment', { optionid: builtInId, advice: { zh: 'x', en: '' } }, school)).errorCode).toBe(ErrorCode.permissionDenied);

    const theirs = (await s.call('as.m.assess.forms.copyForm', { formcode: 'EPDS', musercode: 'I0002' }, provider)).data.formcode;
    const [theirBand] = (await s.call('as.m.assess.quota.getQuotaFormOptionList', { formcode: theirs }, provider)).data;
    const after = await rows();
    expect((await s.call('as.m.assess.quota.getQuotaFormOptionList', { formcode: theirs }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.quota.updateQuotaFormOption', { optionid: theirBand.optionid, band: { level: 1 } }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.quota.deleteQuotaFormOption', { optionid: theirBand.optionid }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.quota.insertQuotaFormOption', { formcode: theirs, quotacode: 'TOTAL', band: band(0, 1, 0, 'x') }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.quota.saveQuotaFormOptions', { formcode: theirs, quotacode: 'TOTAL', options: [] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.comment.updateComment', { optionid: theirBand.optionid, advice: { zh: 'x', en: '' } }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.comment.getCommentPageList', { formcode: theirs }, school)).errorCode).toBe(ErrorCode.notFound);

    for (const [name, input] of [
      ['as.m.assess.quota.getQuotaFormOptionList', { formcode: 'PHQ9' }],
      ['as.m.assess.quota.insertQuotaFormOption', { formcode: copy, quotacode: 'F1', band: band(0, 1, 0, 'x') }],
      ['as.m.assess.quota.updateQuotaFormOption', { optionid: builtInId, band: {} }],
      ['as.m.assess.quota.deleteQuotaFormOption', { optionid: builtInId }],
      ['as.m.assess.quota.saveQuotaFormOptions', { formcode: copy, quotacode: 'F1', options: [] }],
      ['as.m.assess.comment.getCommentPageList', {}],
      ['as.m.assess.comment.updateComment', { optionid: builtInId }],
    ] as const) {
      expect((await s.call(name, input as never, teacher)).errorCode, name).toBe(ErrorCode.permissionDenied);
    }
    expect((await rows())[0]).toBe(after[0]);
    expect(after[0]).toBeGreaterThan(state[0]!);
  });

  it('lists and edits comments; an edit after results makes a new version and the result keeps its own', async () => {
    const all = await s.call('as.m.assess.comment.getCommentPageList', { formcode: 'PHQ9' }, school);
    expect(all.data.total).toBe(5);
    expect(all.data.rows[0]).toMatchObject({ formcode: 'PHQ9', builtin: true, quotacode: 'TOTAL', quotaname: '总分', min: 0, max: 4, level: 0 });
    expect(all.data.rows[0].interpretation.zh.length).toBeGreaterThan(0);
    const severe = await s.call('as.m.assess.comment.getCommentPageList', { level: 4, builtin: 1, pageSize: 200 }, school);
    expect(severe.data.rows.every((r: { level: number; builtin: boolean }) => r.level === 4 && r.builtin)).toBe(true);
    expect((await s.call('as.m.assess.comment.getCommentPageList', { formname: '测试不存在' }, school)).data.total).toBe(0);

    await s.database.db.insert(assessment).values({ assessid: 'A-Q-1', formcode: copy, version: 1, musercode: 'I0001', answers: [], scores: {} });
    const [first] = await options(copy, 'TOTAL');
    const tooLong = { zh: 'x'.repeat(4001), en: '' };
    const state = await rows();
    expect((await s.call('as.m.assess.comment.updateComment', { optionid: first.optionid, advice: tooLong }, school)).errorCode).toBe(ErrorCode.validation);
    expect(await rows()).toEqual(state);
    const upd = await s.call('as.m.assess.comment.updateComment', { optionid: first.optionid, interpretation: { zh: '无明显抑郁症状（本校评语）', en: 'No depression (school wording)' } }, school);
    expect(upd.data).toEqual({ formcode: copy, version: 2 });
    const mine = await s.call('as.m.assess.comment.getCommentPageList', { formcode: copy, level: 0 }, school);
    expect(mine.data.rows.find((r: { optionid: string }) => r.optionid === first.optionid)).toMatchObject({ version: 2, interpretation: { zh: '无明显抑郁症状（本校评语）' } });
    const v1 = await s.call('as.m.assess.quota.getQuotaFormOptionList', { formcode: copy, quotacode: 'TOTAL', version: 1 }, school);
    expect(v1.data[0].band.interpretation.zh).toBe(first.band.interpretation.zh);
    const [result] = await s.database.db.select().from(assessment).where(eq(assessment.assessid, 'A-Q-1'));
    expect(result!.version).toBe(1);
  });
});
