import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { count } from 'drizzle-orm';
import { ErrorCode, type FormDefinition } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { buildXlsx, rowXml, xlsxBomb } from '../../kit/upload/test-zips.js';
import { form, formVersion } from './tables.js';
import { SHEET } from './excel.js';

/** Issue 8 §3: spreadsheets that would stall the server are refused, and parsing never blocks it. */
describe.each(engines())('Excel import guard on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let formcode: string;
  const b64 = (buf: Buffer) => buf.toString('base64');
  const counts = async () => [Number((await s.database.db.select({ n: count() }).from(form))[0]!.n), Number((await s.database.db.select({ n: count() }).from(formVersion))[0]!.n)];
  const definition = async () => ((await s.call('as.m.assess.forms.getForm', { formcode }, school)).data as { definition: FormDefinition }).definition;
  const importFile = (file: Buffer, headers?: Record<string, string>) => s.call('as.m.assess.forms.importFormExcel', { formcode, filename: 'q.xlsx', content: b64(file) }, school, headers);

  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    formcode = (await s.call('as.m.assess.forms.copyForm', { formcode: 'GAD7' }, school)).data.formcode;
  });
  afterAll(() => s?.close());

  it('refuses a small file that inflates to 330 MB, with a clear message and nothing imported', async () => {
    const before = [await counts(), await definition()];
    const bomb = xlsxBomb(330);
    expect(bomb.length).toBeLessThan(1e6); // fits the action's 1 MB cap on content
    const res = await importFile(bomb);
    expect(res.errorCode).toBe(ErrorCode.badImportFile);
    expect(res.errorMsg).toContain('解压');
    expect(res.errorMsg).toMatch(/330/);
    const en = await importFile(bomb, { 'accept-language': 'en-US' });
    expect(en.errorMsg).toMatch(/uncompressed.*330/);
    expect([await counts(), await definition()]).toEqual(before);
  });

  it('refuses a question sheet with too many rows or columns, naming the limit', async () => {
    const before = await counts();
    const tall = buildXlsx([{ name: SHEET, body: Array.from({ length: 2500 }, (_, i) => rowXml(i + 1, [i + 1, 1, `题${i}`])).join('') }]);
    const res = await importFile(tall);
    expect(res.errorCode).toBe(ErrorCode.badImportFile);
    expect(res.errorMsg).toMatch(/超过 \d+ 行/);
    const wide = buildXlsx([{ name: SHEET, body: rowXml(1, Array.from({ length: 200 }, (_, i) => i)) }]);
    const res2 = await importFile(wide, { 'accept-language': 'en-US' });
    expect(res2.errorCode).toBe(ErrorCode.badImportFile);
    expect(res2.errorMsg).toMatch(/more than \d+ columns/);
    expect(await counts()).toEqual(before);
  });

  it('keeps answering other requests while a big allowed file is parsed', async () => {
    // 2000 rows of 60 long cells (about 14 MB of sheet XML): within the limits, but every row
    // is a bad question, so the import ends in a list of row errors and writes nothing.
    const cells = (r: number) => [`q${r}`, ...Array.from({ length: 59 }, (_, c) => `第${r}行第${c}列 ${'文字 text '.repeat(10)}`)];
    const big = buildXlsx([{ name: SHEET, body: Array.from({ length: 2000 }, (_, i) => rowXml(i + 1, cells(i + 1))).join('') }]);
    console.log(`allowed file: ${(big.length / 1e6).toFixed(2)} MB`);

    const delay = monitorEventLoopDelay({ resolution: 5 });
    let done = false;
    const started = performance.now();
    delay.enable();
    const importing = importFile(big).finally(() => (done = true));
    let pings = 0;
    let slowestPing = 0;
    while (!done) {
      const t = performance.now();
      expect((await s.call('as.m.system.ping', {}, school)).errorCode).toBe(0);
      if (!done) pings++;
      slowestPing = Math.max(slowestPing, performance.now() - t);
    }
    const res = await importing;
    const took = performance.now() - started;
    delay.disable();
    const maxDelay = delay.max / 1e6;
    console.log(`import ${took.toFixed(0)} ms; ${pings} pings answered meanwhile, slowest ${slowestPing.toFixed(0)} ms; event-loop delay max ${maxDelay.toFixed(0)} ms, mean ${(delay.mean / 1e6).toFixed(1)} ms; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
    expect(res.errorCode).toBe(ErrorCode.badImportFile);
    expect(res.errorMsg).toContain('第2行');
    // Other requests were answered all along: many pings came back during the import, and no
    // moment of it held the event loop for more than a small part of its duration.
    expect(pings).toBeGreaterThanOrEqual(5);
    expect(slowestPing).toBeLessThan(took / 4);
    expect(maxDelay).toBeLessThan(took / 4);
  });
});
