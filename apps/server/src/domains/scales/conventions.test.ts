/**
 * Scoring conventions written in the scale editor (issue 31 §1): an own scale gets conventions of its
 * own; a bad one is refused with a message in the caller's language and nothing saved; a convention
 * an institution has chosen cannot be removed (or have its code changed) until the choice changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { ErrorCode, type BandDefinition, type ConventionDefinition, type FormDefinition } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { SHEET } from './excel.js';
import { form, formConvention } from './tables.js';

const band = (min: number, max: number, level: number, zh: string): BandDefinition => ({
  min,
  max,
  level,
  label: { zh, en: '' },
  interpretation: { zh: '', en: '' },
  advice: { zh: '', en: '' },
  raisesWarning: false,
});

/** The default: the indicators' own rules. */
const standard: ConventionDefinition = { code: 'std', name: { zh: '标准切分', en: 'Standard cut-offs' }, source: 'Kroenke 2001', indicators: [] };
/** A second convention: PHQ-9 total 0-7 normal, 8-27 moderate (a screening cut-off of 8). */
const cut8: ConventionDefinition = {
  code: 'cut8',
  name: { zh: '筛查切分8分', en: 'Screening cut-off 8' },
  source: 'Manea 2012',
  indicators: [{ code: 'TOTAL', bands: [band(0, 7, 0, '阴性'), band(8, 27, 2, '阳性')] }],
};

describe.each(engines())('scoring conventions in the scale editor on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let formcode: string;

  const load = async () => (await s.call('as.m.assess.forms.getForm', { formcode }, school)).data as { definition: FormDefinition; revision: number };
  async function save(conventions: ConventionDefinition[], lang?: string) {
    const { definition, revision } = await load();
    const { formcode: _c, version: _v, ...body } = definition;
    return s.call('as.m.assess.forms.updateForm', { formcode, revision, definition: { ...body, conventions } }, school, lang ? { 'accept-language': lang } : {});
  }

  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    const copied = await s.call('as.m.assess.forms.copyForm', { formcode: 'PHQ9', formname: '本校PHQ-9' }, school);
    expect(copied.errorCode, copied.errorMsg).toBe(0);
    formcode = copied.data.formcode;
  });
  afterAll(() => s?.close());

  it('an own scale gets a second convention; the institution can choose it and previews score under it', async () => {
    const saved = await save([standard, cut8]);
    expect(saved.errorCode, saved.errorMsg).toBe(0);
    expect((await load()).definition.conventions.map((c) => c.code)).toEqual(['std', 'cut8']);
    const listed = (await s.call('as.m.assess.forms.getConventions', {}, school)).data.forms.find((f: { formcode: string }) => f.formcode === formcode);
    expect(listed).toMatchObject({ code: 'std', conventions: [{ code: 'std' }, { code: 'cut8', source: 'Manea 2012' }] });
    // Items 1-8 at 1 ("several days"), item 9 at 0: total 8 -> normal by the standard bands (5-9 mild), positive under cut8.
    const answers = Array.from({ length: 10 }, (_, i) => ({ no: i + 1, option: i < 8 ? 2 : 1 }));
    const before = await s.call('as.m.assess.forms.previewScore', { formcode, answers }, school);
    expect(before.data.indicators[0]).toMatchObject({ score: 8, level: 1 });
    expect((await s.call('as.m.assess.forms.setConvention', { formcode, code: 'cut8' }, school)).errorCode).toBe(0);
    const after = await s.call('as.m.assess.forms.previewScore', { formcode, answers }, school);
    expect(after.data.indicators[0]).toMatchObject({ score: 8, level: 2, label: { zh: '阳性' } });
    expect(after.data.convention).toMatchObject({ code: 'cut8', name: { zh: '筛查切分8分' } });
  });

  it.each([
    ['the same code twice', () => [standard, { ...cut8, code: 'std' }], '计分约定代码 std 重复', 'convention code std is used twice'],
    ['the same name twice', () => [standard, { ...cut8, name: standard.name }], '计分约定名称“标准切分”重复', 'convention name "标准切分" is used twice'],
    [
      'an unknown indicator',
      () => [standard, { ...cut8, indicators: [{ code: 'NOPE', bands: cut8.indicators[0]!.bands }] }],
      '计分约定 cut8 指向不存在的指标 NOPE',
      'convention cut8 names an unknown indicator NOPE',
    ],
    [
      'one indicator replaced twice',
      () => [standard, { ...cut8, indicators: [cut8.indicators[0]!, cut8.indicators[0]!] }],
      '计分约定 cut8 重复替换指标 TOTAL',
      'convention cut8 replaces indicator TOTAL twice',
    ],
    [
      'bands with a gap',
      () => [standard, { ...cut8, indicators: [{ code: 'TOTAL', bands: [band(0, 6, 0, '阴性'), band(8, 27, 2, '阳性')] }] }],
      '计分约定 cut8 指标 TOTAL：',
      'convention cut8, indicator TOTAL: ',
    ],
    [
      'no bands for the mental-state rule',
      () => [standard, { ...cut8, indicators: [{ code: 'TOTAL', bands: [] }] }],
      '去掉了心理状态规则所用指标 TOTAL 的分段',
      'removes the bands of indicator TOTAL, which the mental-state rule reads',
    ],
  ] as const)('refuses %s in the caller’s language and saves nothing', async (_name, conventions, zh, en) => {
    const before = await load();
    const refusedZh = await save(conventions() as ConventionDefinition[]);
    expect(refusedZh.errorCode).toBe(ErrorCode.validation);
    expect(refusedZh.errorMsg).toContain(zh);
    const refusedEn = await save(conventions() as ConventionDefinition[], 'en-US');
    expect(refusedEn.errorCode).toBe(ErrorCode.validation);
    expect(refusedEn.errorMsg).toContain(en);
    expect(await load()).toEqual(before);
  });

  it('a chosen convention cannot be removed or renamed (zh and en, nothing saved); once the choice changes it can', async () => {
    const before = await load();
    const [row] = await s.database.db.select({ version: form.version, revision: form.revision }).from(form).where(eq(form.formcode, formcode));
    const removed = await save([standard]);
    expect(removed.errorCode).toBe(ErrorCode.conflict);
    expect(removed.errorMsg).toContain('计分约定“筛查切分8分”（cut8）正被');
    expect(removed.errorMsg).toContain('请先在量表库的“计分约定”中改选其他约定');
    const renamed = await save([standard, { ...cut8, code: 'cut08' }], 'en-US');
    expect(renamed.errorCode).toBe(ErrorCode.conflict);
    expect(renamed.errorMsg).toContain('The scoring convention "Screening cut-off 8" (cut8) is chosen by');
    expect(await load()).toEqual(before);
    expect((await s.database.db.select({ version: form.version, revision: form.revision }).from(form).where(eq(form.formcode, formcode)))[0]).toEqual(row);
    // Another convention may still be removed or added beside the chosen one.
    expect((await save([standard, cut8, { ...cut8, code: 'cut8b', name: { zh: '另一切分', en: '' } }])).errorCode).toBe(0);
    expect((await save([standard, cut8])).errorCode).toBe(0);

    expect((await s.call('as.m.assess.forms.setConvention', { formcode, code: 'std' }, school)).errorCode).toBe(0);
    const ok = await save([standard]);
    expect(ok.errorCode, ok.errorMsg).toBe(0);
    expect((await load()).definition.conventions.map((c) => c.code)).toEqual(['std']);
    expect((await s.database.db.select().from(formConvention).where(eq(formConvention.formcode, formcode)))[0]).toMatchObject({ code: 'std' });
  });

  it('an Excel import of the questions keeps the screening rules and conventions (the template carries questions only)', async () => {
    expect((await save([standard, cut8])).errorCode).toBe(0);
    const { definition } = await load();
    const withRule = {
      ...definition,
      screening: [{ name: { zh: '筛查', en: 'Screen' }, level: 'attention' as const, conditions: [{ kind: 'indicator' as const, indicator: 'TOTAL', op: 'gte' as const, value: 10 }], reason: { zh: '总分≥10', en: 'Total ≥ 10' }, source: 'Manea 2012' }],
    };
    const { formcode: _c, version: _v, ...body } = withRule;
    expect((await s.call('as.m.assess.forms.updateForm', { formcode, revision: (await load()).revision, definition: body }, school)).errorCode).toBe(0);
    const file = await s.raw('as.m.assess.forms.exportFormExcelTemplate', JSON.stringify({ formcode }), { token: school });
    // One question's wording edited, so the import really writes the definition.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    wb.getWorksheet(SHEET)!.getRow(2).getCell(3).value = '改过的第1题';
    const content = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    const imported = await s.call('as.m.assess.forms.importFormExcel', { formcode, filename: 'q.xlsx', content }, school);
    expect(imported.errorCode, imported.errorMsg).toBe(0);
    const after = (await load()).definition;
    expect(after.questions[0]!.text.zh).toBe('改过的第1题');
    expect(after.conventions).toEqual(withRule.conventions);
    expect(after.screening).toEqual(withRule.screening);
  });

  it('a JSON export carries the screening rules and conventions into the imported copy', async () => {
    const { definition } = await load();
    const file = await s.raw('as.m.assess.forms.exportFormJson', JSON.stringify({ formcode }), { token: school });
    const imported = await s.call('as.m.assess.forms.importFormJson', { filename: 'f.json', content: Buffer.from(file.rawPayload).toString('base64') }, school);
    expect(imported.errorCode, imported.errorMsg).toBe(0);
    const copy = (await s.call('as.m.assess.forms.getForm', { formcode: imported.data.formcode }, school)).data.definition as FormDefinition;
    expect([copy.conventions, copy.screening]).toEqual([definition.conventions, definition.screening]);
    expect(copy.conventions.map((c) => c.code)).toEqual(['std', 'cut8']);
  });
});
