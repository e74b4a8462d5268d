import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { ErrorCode, type FormDefinition } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { form, formVersion, quotaOption } from './tables.js';
import { assessment } from '../assessments/tables.js';
import { builtInForms } from './library/index.js';
import { reviseForm } from './store.js';

/** The editor's body: a definition without formcode and version. */
const bodyOf = ({ formcode: _c, version: _v, ...body }: FormDefinition) => body;

describe.each(engines())('scale library on %s', (engine) => {
  let s: TestServer;
  let school: string, provider: string, teacher: string, bureau: string, hospitalAdmin: string;
  const counts = async () => {
    const db = s.database.db;
    return [
      Number((await db.select({ n: count() }).from(form))[0]!.n),
      Number((await db.select({ n: count() }).from(formVersion))[0]!.n),
      Number((await db.select({ n: count() }).from(quotaOption))[0]!.n),
    ];
  };
  /** The revision an editor would have loaded (updateForm sends it back). */
  const revisionOf = async (formcode: string) => (await s.call('as.m.assess.forms.getForm', { formcode }, school)).data.revision as number;
  const phq9 = async (token: string) => (await s.call('as.m.assess.forms.getForm', { formcode: 'PHQ9' }, token)).data.definition as FormDefinition;

  beforeAll(async () => {
    s = await startTestServer(engine);
    [school, provider, teacher, bureau] = await Promise.all(['school', 'provider', 'teacher', 'bureau'].map(async (u) => (await s.login(u)).token));
    hospitalAdmin = (await s.login('hospital')).token;
  });
  afterAll(() => s?.close());

  it('seeds the whole built-in library, idempotently', async () => {
    const list = await s.call('as.m.assess.forms.getFormPageList', { builtin: 1, pageSize: 200 }, school);
    expect(list.data.total).toBe(builtInForms.length);
    // Every page carries the same total; a page past the end has none of the rows but still the total.
    const second = await s.call('as.m.assess.forms.getFormPageList', { builtin: 1, page: 2, pageSize: 10 }, school);
    expect([second.data.total, second.data.rows.map((r: { formcode: string }) => r.formcode)]).toEqual([builtInForms.length, list.data.rows.slice(10, 20).map((r: { formcode: string }) => r.formcode)]);
    expect((await s.call('as.m.assess.forms.getFormPageList', { builtin: 1, page: 99, pageSize: 10 }, school)).data).toEqual({ total: builtInForms.length, rows: [] });
    const before = await counts();
    const { syncReferenceData } = await import('../../seed/reference.js');
    await syncReferenceData(s.database.db);
    expect(await counts()).toEqual(before);
    const row = list.data.rows.find((r: { formcode: string }) => r.formcode === 'PHQ9');
    expect(row).toMatchObject({ builtin: true, musercode: '', insname: '', version: 1, questioncount: 10, indicatorcount: 1, enabled: 1, formtype: '01' });
  });

  it('filters the library by name, type, app and enabled; English names for English callers', async () => {
    const byName = await s.call('as.m.assess.forms.getFormPageList', { formname: 'PHQ' }, school);
    expect(byName.data.rows.map((r: { formcode: string }) => r.formcode).sort()).toEqual(['PHQ9', 'PHQA']);
    const en = await s.call('as.m.assess.forms.getFormPageList', { formname: 'Edinburgh' }, school, { 'accept-language': 'en-US' });
    expect(en.data.rows.map((r: { formname: string }) => r.formname)).toEqual([expect.stringContaining('Edinburgh')]);
    const maternity = await s.call('as.m.assess.forms.getFormPageList', { appid: '000000001', pageSize: 200 }, school);
    expect(maternity.data.rows.map((r: { formcode: string }) => r.formcode)).toContain('EPDS');
    expect(maternity.data.rows.every((r: { appids: string[] }) => r.appids.includes('000000001'))).toBe(true);
    // The only built-in registration form (type 03) is the consultation request.
    expect((await s.call('as.m.assess.forms.getFormPageList', { formtype: '03' }, school)).data.rows.map((r: { formcode: string }) => r.formcode)).toEqual(['REG_CONSULT']);
    expect((await s.call('as.m.assess.forms.getFormPageList', { enabled: 0 }, school)).data.total).toBe(0);
    expect((await s.call('as.m.assess.forms.getFormPageList', { pageSize: 500 }, school)).errorCode).toBe(ErrorCode.validation);
  });

  it('refuses callers without the scale library codes', async () => {
    const before = await counts();
    const body = bodyOf(await phq9(school));
    const calls: [string, Record<string, unknown>][] = [
      ['as.m.assess.forms.getFormPageList', {}],
      ['as.m.assess.forms.getForm', { formcode: 'PHQ9' }],
      ['as.m.assess.forms.insertForm', { definition: body }],
      ['as.m.assess.forms.updateForm', { formcode: 'PHQ9', revision: 0, definition: body }],
      ['as.m.assess.forms.copyForm', { formcode: 'PHQ9' }],
      ['as.m.assess.forms.deleteForm', { formcode: 'PHQ9' }],
      ['as.m.assess.forms.enableForm', { formcode: 'PHQ9', enabled: 0 }],
      ['as.m.assess.forms.previewScore', { formcode: 'PHQ9', answers: [] }],
    ];
    for (const [name, input] of calls) {
      expect((await s.call(name as never, input, teacher)).errorCode, `teacher ${name}`).toBe(ErrorCode.permissionDenied);
      expect((await s.call(name as never, input, bureau)).errorCode, `bureau ${name}`).toBe(ErrorCode.permissionDenied);
    }
    // The hospital reads nothing of the plan menus either (it lacks 00001-00004).
    expect((await s.call('as.m.assess.forms.getFormPageList', {}, hospitalAdmin)).errorCode).toBe(ErrorCode.permissionDenied);
    expect(await counts()).toEqual(before);
  });

  it('a built-in scale cannot be edited, enabled or deleted, but can be copied and the copy edited', async () => {
    const def = await phq9(school);
    const before = await counts();
    for (const [name, input] of [
      ['as.m.assess.forms.updateForm', { formcode: 'PHQ9', revision: 0, definition: bodyOf(def) }],
      ['as.m.assess.forms.deleteForm', { formcode: 'PHQ9' }],
      ['as.m.assess.forms.enableForm', { formcode: 'PHQ9', enabled: 0 }],
    ] as const) {
      expect((await s.call(name, input as never, school)).errorCode, name).toBe(ErrorCode.permissionDenied);
    }
    expect(await counts()).toEqual(before);

    const copy = await s.call('as.m.assess.forms.copyForm', { formcode: 'PHQ9', formname: '本校PHQ-9' }, school);
    expect(copy.errorCode).toBe(0);
    expect(copy.data.version).toBe(1);
    const got = await s.call('as.m.assess.forms.getForm', { formcode: copy.data.formcode }, school);
    expect(got.data.form).toMatchObject({ formname: '本校PHQ-9', builtin: false, musercode: 'I0001', insname: '滨江第一中学', copiedfrom: 'PHQ9', questioncount: 10 });
    expect(got.data.definition.indicators[0].bands).toHaveLength(def.indicators[0]!.bands.length);

    const edited = structuredClone(got.data.definition) as FormDefinition;
    edited.questions[0]!.text.zh = '做事时提不起劲或没有兴趣（本校版）';
    const upd = await s.call('as.m.assess.forms.updateForm', { formcode: copy.data.formcode, revision: await revisionOf(copy.data.formcode), definition: bodyOf(edited) }, school);
    expect(upd.data).toEqual({ formcode: copy.data.formcode, version: 1 }); // no results yet: same version
    expect((await s.call('as.m.assess.forms.getForm', { formcode: copy.data.formcode }, school)).data.definition.questions[0].text.zh).toBe('做事时提不起劲或没有兴趣（本校版）');
    // The built-in itself is untouched.
    expect((await phq9(school)).questions[0]!.text.zh).toBe(def.questions[0]!.text.zh);

    // The list's sizes and licence follow every save (the header mirrors the definition).
    const shorter = structuredClone(edited);
    shorter.questions.pop();
    shorter.licence = { zh: '本校自用', en: 'For our own use' };
    const saved = await s.call('as.m.assess.forms.updateForm', { formcode: copy.data.formcode, revision: await revisionOf(copy.data.formcode), definition: bodyOf(shorter) }, school);
    expect(saved.errorCode).toBe(0);
    const listed = async (lang: string) =>
      (await s.call('as.m.assess.forms.getFormPageList', { builtin: 0, pageSize: 200 }, school, { 'accept-language': lang })).data.rows.find((r: { formcode: string }) => r.formcode === copy.data.formcode);
    expect(await listed('zh-CN')).toMatchObject({ questioncount: def.questions.length - 1, indicatorcount: def.indicators.length, licence: '本校自用' });
    expect(await listed('en-US')).toMatchObject({ licence: 'For our own use' });
  });

  it('creates a form from a definition; the engine’s checks reject a broken one and nothing is stored', async () => {
    const body = bodyOf(await phq9(school));
    const before = await counts();
    const broken = structuredClone(body);
    broken.indicators[0]!.bands[1]!.min += 1; // a gap between two bands
    const res = await s.call('as.m.assess.forms.insertForm', { definition: broken }, school);
    expect(res.errorCode).toBe(ErrorCode.validation);
    expect(res.errorMsg).toContain('TOTAL');
    expect((await s.call('as.m.assess.forms.insertForm', { definition: { ...body, formtype: '09' } }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.assess.forms.insertForm', { definition: body, musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.forms.insertForm', { definition: { ...body, source: 'a\u0000b' } }, school)).errorCode).toBe(ErrorCode.validation);
    const admin = (await s.login('admin')).token;
    expect((await s.call('as.m.assess.forms.insertForm', { definition: body, musercode: 'NOSUCH' }, admin)).errorCode).toBe(ErrorCode.notFound);
    expect(await counts()).toEqual(before);

    const ok = await s.call('as.m.assess.forms.insertForm', { definition: { ...body, formname: { zh: '新建量表', en: 'New scale' } } }, school);
    expect(ok.errorCode).toBe(0);
    const [c0, c1, c2] = await counts();
    expect([c0, c1]).toEqual([before[0]! + 1, before[1]! + 1]);
    expect(c2).toBe(before[2]! + body.indicators[0]!.bands.length);
  });

  it('disables and deletes own forms; another institution’s form is not found', async () => {
    const mine = (await s.call('as.m.assess.forms.copyForm', { formcode: 'GAD7' }, school)).data.formcode;
    const theirs = (await s.call('as.m.assess.forms.copyForm', { formcode: 'EPDS', musercode: 'I0002' }, provider)).data.formcode;
    expect((await s.call('as.m.assess.forms.enableForm', { formcode: mine, enabled: 0 }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.assess.forms.getFormPageList', { enabled: 0 }, school)).data.rows.map((r: { formcode: string }) => r.formcode)).toEqual([mine]);
    for (const [name, input] of [
      ['as.m.assess.forms.getForm', { formcode: theirs }],
      ['as.m.assess.forms.copyForm', { formcode: theirs }],
      ['as.m.assess.forms.deleteForm', { formcode: theirs }],
      ['as.m.assess.forms.enableForm', { formcode: theirs, enabled: 0 }],
      ['as.m.assess.forms.previewScore', { formcode: theirs, answers: [] }],
      ['as.m.assess.forms.updateForm', { formcode: theirs, revision: 0, definition: bodyOf(await phq9(school)) }],
    ] as const) {
      expect((await s.call(name, input as never, school)).errorCode, name).toBe(ErrorCode.notFound);
    }
    expect((await s.call('as.m.assess.forms.getFormPageList', { pageSize: 200 }, school)).data.rows.map((r: { formcode: string }) => r.formcode)).not.toContain(theirs);
    // The provider sees its institutions' forms.
    expect((await s.call('as.m.assess.forms.getForm', { formcode: theirs }, provider)).data.form.musercode).toBe('I0002');
    expect((await s.call('as.m.assess.forms.deleteForm', { formcode: mine }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.assess.forms.getForm', { formcode: mine }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('editing a form that has results writes version 2; the result keeps version 1', async () => {
    const { formcode } = (await s.call('as.m.assess.forms.copyForm', { formcode: 'PHQ9' }, school)).data;
    const answers = Array.from({ length: 9 }, (_, i) => ({ no: i + 1, option: 2 }));
    const scored = await s.call('as.m.assess.forms.previewScore', { formcode, answers }, school);
    await s.database.db.insert(assessment).values({ assessid: 'A-TEST-1', formcode, version: 1, musercode: 'I0001', answers, scores: scored.data });

    const def = (await s.call('as.m.assess.forms.getForm', { formcode }, school)).data.definition as FormDefinition;
    const edited = structuredClone(def);
    edited.questions[1]!.text.zh = '感到心情低落、沮丧或绝望（修订）';
    const upd = await s.call('as.m.assess.forms.updateForm', { formcode, revision: await revisionOf(formcode), definition: bodyOf(edited) }, school);
    expect(upd.data).toEqual({ formcode, version: 2 });

    const [result] = await s.database.db.select().from(assessment).where(eq(assessment.assessid, 'A-TEST-1'));
    expect(result!.version).toBe(1);
    const now = await s.call('as.m.assess.forms.getForm', { formcode }, school);
    expect(now.data.form.version).toBe(2);
    expect(now.data.definition.questions[1].text.zh).toBe('感到心情低落、沮丧或绝望（修订）');
    expect(now.data.versions).toEqual([expect.objectContaining({ version: 1, resultcount: 1 }), expect.objectContaining({ version: 2, resultcount: 0 })]);
    const v1 = await s.call('as.m.assess.forms.getForm', { formcode, version: result!.version }, school);
    expect(v1.data.definition.questions[1].text.zh).toBe(def.questions[1]!.text.zh);
    expect(v1.data.definition.version).toBe(1);
    // Bands were carried into version 2 with the same ids.
    const ids = async (version: number) =>
      (await s.database.db.select({ id: quotaOption.optionid }).from(quotaOption).where(and(eq(quotaOption.formcode, formcode), eq(quotaOption.version, version)))).map((r) => r.id).sort();
    expect(await ids(2)).toEqual(await ids(1));
    // Saving the same definition again writes nothing: still version 2.
    expect((await s.call('as.m.assess.forms.updateForm', { formcode, revision: await revisionOf(formcode), definition: bodyOf(edited) }, school)).data.version).toBe(2);
    await s.database.db.insert(assessment).values({ assessid: 'A-TEST-2', formcode, version: 2, musercode: 'I0001', answers, scores: scored.data });
    expect((await s.call('as.m.assess.forms.updateForm', { formcode, revision: await revisionOf(formcode), definition: bodyOf(edited) }, school)).data.version).toBe(2);
    // A real change after results on version 2 makes version 3; a form with results cannot be deleted.
    edited.questions[1]!.text.en = 'Feeling down (revised)';
    expect((await s.call('as.m.assess.forms.updateForm', { formcode, revision: await revisionOf(formcode), definition: bodyOf(edited) }, school)).data.version).toBe(3);
    expect((await s.call('as.m.assess.forms.deleteForm', { formcode }, school)).errorCode).toBe(ErrorCode.conflict);
    // An editor still holding version 1 cannot overwrite the newer version: conflict, nothing written.
    const stale = s.database.db.transaction((tx) => reviseForm(tx, { formcode, version: 1 }, { ...edited, formcode }, new Map(), s.clock.now()));
    await expect(stale).rejects.toMatchObject({ codeName: 'conflict' });
    expect((await s.call('as.m.assess.forms.getForm', { formcode }, school)).data.form.version).toBe(3);
  });

  it('previews PHQ-9: item 9 on option 2 at a low total raises a warning; nothing is stored', async () => {
    const before = Number((await s.database.db.select({ n: count() }).from(assessment))[0]!.n);
    const answers = [...Array.from({ length: 8 }, (_, i) => ({ no: i + 1, option: 1 })), { no: 9, option: 2 }];
    const res = await s.call('as.m.assess.forms.previewScore', { formcode: 'PHQ9', answers }, school);
    expect(res.errorCode).toBe(0);
    const total = res.data.indicators[0];
    expect(total).toMatchObject({ code: 'TOTAL', score: 1, level: 0 });
    expect(typeof total.colour).toBe('string');
    expect(total.interpretation.zh.length).toBeGreaterThan(0);
    expect(res.data.warnings).toEqual([expect.objectContaining({ source: 'critical', no: 9 })]);
    expect(res.data.warnings[0].reason.zh).toContain('第9题');
    expect(res.data.mentalState).toBeGreaterThanOrEqual(0);

    const severe = await s.call('as.m.assess.forms.previewScore', { formcode: 'PHQ9', answers: Array.from({ length: 9 }, (_, i) => ({ no: i + 1, option: 4 })) }, school);
    expect(severe.data.indicators[0]).toMatchObject({ score: 27, level: 4 });
    expect(severe.data.mentalState).toBe(4);

    const missing = await s.call('as.m.assess.forms.previewScore', { formcode: 'PHQ9', answers: answers.slice(0, 7) }, school);
    expect(missing.errorCode).toBe(ErrorCode.validation);
    expect(missing.errorMsg).toContain('8');
    const outOfRange = await s.call('as.m.assess.forms.previewScore', { formcode: 'PHQ9', answers: [...answers.slice(0, 8), { no: 9, option: 7 }] }, school, { 'accept-language': 'en-US' });
    expect(outOfRange.errorCode).toBe(ErrorCode.validation);
    expect(outOfRange.errorMsg).toContain('9');
    expect((await s.call('as.m.assess.forms.previewScore', { formcode: 'PHQ9', answers: [{ no: 0, option: 1 }] }, school)).errorCode).toBe(ErrorCode.validation);
    expect(Number((await s.database.db.select({ n: count() }).from(assessment))[0]!.n)).toBe(before);
  });
});
