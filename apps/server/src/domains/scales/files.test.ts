import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { ErrorCode, type FormDefinition } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { form, formVersion } from './tables.js';
import { SHEET } from './excel.js';

describe.each(engines())('scale files (JSON and Excel) on %s', (engine) => {
  let s: TestServer;
  let school: string, teacher: string, provider: string;
  const counts = async () => [Number((await s.database.db.select({ n: count() }).from(form))[0]!.n), Number((await s.database.db.select({ n: count() }).from(formVersion))[0]!.n)];
  const download = async (name: string, body: Record<string, unknown>, token: string) => s.raw(name, JSON.stringify(body), { token });
  const getForm = async (formcode: string) => (await s.call('as.m.assess.forms.getForm', { formcode }, school)).data as { form: { version: number; questioncount: number }; definition: FormDefinition };
  const b64 = (buf: Buffer | ArrayBuffer) => Buffer.from(buf as ArrayBuffer).toString('base64');

  async function editWorkbook(buf: Buffer, edit: (ws: ExcelJS.Worksheet) => void): Promise<string> {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    edit(wb.getWorksheet(SHEET)!);
    return b64(await wb.xlsx.writeBuffer());
  }

  beforeAll(async () => {
    s = await startTestServer(engine);
    [school, teacher, provider] = await Promise.all(['school', 'teacher', 'provider'].map(async (u) => (await s.login(u)).token));
  });
  afterAll(() => s?.close());

  it('exports a scale as JSON and imports it back as an own scale', async () => {
    const res = await download('as.m.assess.forms.exportFormJson', { formcode: 'GAD7' }, school);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['content-disposition']).toContain('attachment');
    const file = JSON.parse(res.body);
    expect(file).toMatchObject({ format: 'xinli-scale', definition: { formcode: 'GAD7', version: 1 } });

    const imported = await s.call('as.m.assess.forms.importFormJson', { filename: 'gad7.json', content: b64(res.rawPayload) }, school);
    expect(imported.errorCode).toBe(0);
    const got = await getForm(imported.data.formcode);
    const original = await getForm('GAD7');
    expect(got.definition.questions).toEqual(original.definition.questions);
    expect(got.definition.indicators).toEqual(original.definition.indicators);
    expect((await s.call('as.m.assess.forms.getFormPageList', { builtin: 0 }, school)).data.rows.map((r: { formcode: string }) => r.formcode)).toContain(imported.data.formcode);
    // A bare definition (no export wrapper) imports too.
    const bare = await s.call('as.m.assess.forms.importFormJson', { filename: 'gad7.json', content: b64(Buffer.from(JSON.stringify(file.definition))) }, school);
    expect(bare.errorCode).toBe(0);
    expect((await getForm(bare.data.formcode)).definition.questions).toEqual(original.definition.questions);
  });

  it('rejects a bad JSON file and imports nothing', async () => {
    const before = await counts();
    const bad = async (content: string) => (await s.call('as.m.assess.forms.importFormJson', { filename: 'x.json', content }, school)).errorCode;
    expect(await bad(b64(Buffer.from('{not json')))).toBe(ErrorCode.badImportFile);
    expect(await bad(b64(Buffer.from(JSON.stringify({ hello: 1 }))))).toBe(ErrorCode.badImportFile);
    expect(await bad(b64(Buffer.from(JSON.stringify([1, 2]))))).toBe(ErrorCode.badImportFile);
    expect(await bad(b64(Buffer.from('null')))).toBe(ErrorCode.badImportFile);
    const file = JSON.parse((await download('as.m.assess.forms.exportFormJson', { formcode: 'PHQ9' }, school)).body);
    file.definition.indicators[0].bands[0].max = 3; // leaves score 4 in no band
    const res = await s.call('as.m.assess.forms.importFormJson', { filename: 'x.json', content: b64(Buffer.from(JSON.stringify(file))) }, school);
    expect(res.errorCode).toBe(ErrorCode.badImportFile);
    expect(res.errorMsg).toContain('TOTAL');
    expect((await s.call('as.m.assess.forms.importFormJson', { filename: 'x.json', content: '%%%' }, school)).errorCode).toBe(ErrorCode.validation);
    expect(await counts()).toEqual(before);
  });

  it('gives an empty Excel template and one filled with a scale’s questions', async () => {
    const empty = await download('as.m.assess.forms.exportFormExcelTemplate', {}, school);
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(empty.rawPayload as unknown as ArrayBuffer);
    expect(wb.getWorksheet(SHEET)!.rowCount).toBe(1);
    const filled = await download('as.m.assess.forms.exportFormExcelTemplate', { formcode: 'PHQ9' }, school);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(filled.rawPayload as unknown as ArrayBuffer);
    const ws = wb2.getWorksheet(SHEET)!;
    expect(ws.rowCount).toBe(11);
    expect(ws.getRow(10).getCell(1).value).toBe(9);
    expect(ws.getRow(10).getCell(11).value).toBe(0); // score of option 1
  });

  it('round-trips the Excel template: unchanged questions change nothing, an edited row updates the scale', async () => {
    const { formcode } = (await s.call('as.m.assess.forms.copyForm', { formcode: 'PHQ9' }, school)).data;
    const before = await getForm(formcode);
    const file = (await download('as.m.assess.forms.exportFormExcelTemplate', { formcode }, school)).rawPayload;
    const same = await s.call('as.m.assess.forms.importFormExcel', { formcode, filename: 'q.xlsx', content: b64(file) }, school);
    expect(same.data).toEqual({ formcode, version: 1, questioncount: 10 });
    expect((await getForm(formcode)).definition).toEqual(before.definition);

    const edited = await editWorkbook(file, (ws) => {
      ws.getRow(2).getCell(3).value = '=做事时提不起劲（导入）';
      ws.getRow(2).getCell(9).value = '完全不会（导入）';
    });
    const res = await s.call('as.m.assess.forms.importFormExcel', { formcode, filename: 'q.xlsx', content: edited }, school);
    expect(res.errorCode).toBe(0);
    const after = await getForm(formcode);
    expect(after.definition.questions[0]!.text.zh).toBe('=做事时提不起劲（导入）');
    expect(after.definition.questions[0]!.options[0]!.text.zh).toBe('完全不会（导入）');
    expect(after.definition.questions.slice(1)).toEqual(before.definition.questions.slice(1));
    expect(after.definition.indicators).toEqual(before.definition.indicators);
    // The formula-looking text is escaped in the exported sheet and read back as written.
    const again = await download('as.m.assess.forms.exportFormExcelTemplate', { formcode }, school);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(again.rawPayload as unknown as ArrayBuffer);
    expect(wb.getWorksheet(SHEET)!.getRow(2).getCell(3).value).toBe("'=做事时提不起劲（导入）");
  });

  it('a bad Excel file imports nothing and names the bad rows', async () => {
    const { formcode } = (await s.call('as.m.assess.forms.copyForm', { formcode: 'GAD7' }, school)).data;
    const before = await getForm(formcode);
    const state = await counts();
    const file = (await download('as.m.assess.forms.exportFormExcelTemplate', { formcode }, school)).rawPayload;
    const broken = await editWorkbook(file, (ws) => {
      ws.getRow(3).getCell(2).value = 7; // no such type
      ws.getRow(5).getCell(11).value = 'abc'; // score not a number
    });
    const res = await s.call('as.m.assess.forms.importFormExcel', { formcode, filename: 'q.xlsx', content: broken }, school);
    expect(res.errorCode).toBe(ErrorCode.badImportFile);
    expect(res.errorMsg).toContain('第3行');
    expect(res.errorMsg).toContain('第5行');
    const en = await s.call('as.m.assess.forms.importFormExcel', { formcode, filename: 'q.xlsx', content: broken }, school, { 'accept-language': 'en-US' });
    expect(en.errorMsg).toMatch(/row 3.*row 5/);
    // Rows that read well but break the definition (score 23 reachable, bands end at 21): also a bad file.
    const short = await editWorkbook(file, (ws) => void (ws.getRow(2).getCell(20).value = 5));
    expect((await s.call('as.m.assess.forms.importFormExcel', { formcode, filename: 'q.xlsx', content: short }, school)).errorCode).toBe(ErrorCode.badImportFile);
    // Not a spreadsheet at all.
    expect((await s.call('as.m.assess.forms.importFormExcel', { formcode, filename: 'q.xlsx', content: b64(Buffer.from('hello, world')) }, school)).errorCode).toBe(ErrorCode.badImportFile);
    expect(await counts()).toEqual(state);
    expect((await getForm(formcode)).definition).toEqual(before.definition);
  });

  it('refuses imports into built-in or foreign scales and callers without the codes', async () => {
    const state = await counts();
    const file = b64((await download('as.m.assess.forms.exportFormExcelTemplate', { formcode: 'PHQ9' }, school)).rawPayload);
    expect((await s.call('as.m.assess.forms.importFormExcel', { formcode: 'PHQ9', filename: 'q.xlsx', content: file }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    const theirs = (await s.call('as.m.assess.forms.copyForm', { formcode: 'PHQ9', musercode: 'I0002' }, provider)).data.formcode;
    const after = await counts();
    expect((await s.call('as.m.assess.forms.importFormExcel', { formcode: theirs, filename: 'q.xlsx', content: file }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await download('as.m.assess.forms.exportFormJson', { formcode: theirs }, school)).json().errorCode).toBe(ErrorCode.notFound);
    expect((await download('as.m.assess.forms.exportFormExcelTemplate', { formcode: theirs }, school)).json().errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.forms.importFormJson', { filename: 'x.json', content: file, musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    for (const [name, input] of [
      ['as.m.assess.forms.exportFormJson', { formcode: 'PHQ9' }],
      ['as.m.assess.forms.exportFormExcelTemplate', {}],
      ['as.m.assess.forms.importFormJson', { filename: 'x.json', content: file }],
      ['as.m.assess.forms.importFormExcel', { formcode: theirs, filename: 'q.xlsx', content: file }],
    ] as const) {
      expect((await download(name, input, teacher)).json().errorCode, name).toBe(ErrorCode.permissionDenied);
    }
    expect(after[0]).toBe(state[0]! + 1);
    expect(await counts()).toEqual(after);
  });
});
