import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { AppError } from '../../http/errors.js';
import { MAX_WORKERS, readSheetRows, streamSheetRows, uploadWorkers, UploadRefused, type RefusalReason } from './reader.js';
import { SharedStrings } from './parse.js';
import { buildXlsx, buildZip, rowXml, xlsxBomb } from './test-zips.js';

/** The refusal a read ends in (fails the test when the read succeeds or fails otherwise). */
async function refusal(p: Promise<unknown>): Promise<UploadRefused> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e, 'the read should have been refused').toBeInstanceOf(UploadRefused);
  const r = e as UploadRefused;
  expect(r).toBeInstanceOf(AppError);
  expect(r.codeName).toBe('badImportFile');
  return r;
}
const expectReason = async (p: Promise<unknown>, reason: RefusalReason) => {
  const r = await refusal(p);
  expect(r.reason, r.msg?.en).toBe(reason);
  return r;
};

const rows = (n: number, cols = 3) => Array.from({ length: n }, (_, i) => rowXml(i + 1, Array.from({ length: cols }, (_, c) => (c === 0 ? `name ${i + 1}` : i * cols + c)))).join('');

describe('guarded spreadsheet reader', () => {
  it('reads what exceljs writes: names, shared and rich strings, numbers, booleans, formula results, gaps', async () => {
    const wb = new ExcelJS.Workbook();
    const a = wb.addWorksheet('名单 Roster');
    a.addRow(['姓名', 'Age', 'ok']);
    a.addRow(['张三 <&>', 31, true]);
    a.getCell('A4').value = { richText: [{ text: '李', font: { bold: true } }, { text: '四' }] };
    a.getCell('C4').value = { formula: 'B2*2', result: 62 };
    a.getCell('E4').value = 'far';
    a.getCell('B4').value = 2.5;
    wb.addWorksheet('Empty');
    wb.addWorksheet('Second').addRow(['x']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());

    const { sheets } = await readSheetRows(buf);
    expect(sheets.map((s) => s.name)).toEqual(['名单 Roster', 'Empty', 'Second']);
    expect(sheets[0]!.rows).toEqual([['姓名', 'Age', 'ok'], ['张三 <&>', 31, true], [], ['李四', 2.5, 62, null, 'far']]);
    expect(sheets[1]!.rows).toEqual([]);
    expect(sheets[2]!.rows).toEqual([['x']]);

    expect((await readSheetRows(buf, { sheets: { name: 'Second' } })).sheets.map((s) => s.name)).toEqual(['Second']);
    expect((await readSheetRows(buf, { sheets: { name: 'nope', orFirst: true } })).sheets.map((s) => s.name)).toEqual(['名单 Roster']);
    expect((await readSheetRows(buf, { sheets: { name: 'nope' } })).sheets).toEqual([]);
  });

  it('reads many shared strings back as written (they are kept as UTF-8 bytes), and leaves the caller’s bytes whole', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('s');
    // 3,000 distinct strings and one of 30,000 characters: past the first size of the store.
    const texts = Array.from({ length: 3000 }, (_, i) => [`老人${i} “引号” \\ "q" & <x>`, `😀 ${i} é`]);
    texts.push(['长'.repeat(15_000) + 'x'.repeat(15_000), 'end']);
    for (const t of texts) ws.addRow(t);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const copy = Buffer.from(buf);

    const { sheets } = await readSheetRows(buf);
    expect(sheets[0]!.rows).toEqual(texts);
    // The worker was given a copy of its own: the caller's bytes are still there, unchanged.
    expect(buf.equals(copy)).toBe(true);

    const store = new SharedStrings(100_000);
    store.push('');
    store.push('é😀');
    expect([store.at(0), store.at(1), store.length]).toEqual(['', 'é😀', 2]);
    // A cell naming no shared string reads as empty, as before.
    for (const bad of [-1, 2, 1.5, Number.NaN]) expect(store.at(bad)).toBeNull();
    // Outside the worker's heap, the store has a cap of its own: past it the file is refused.
    store.push('x'.repeat(30_000));
    expect(() => store.push('y'.repeat(30_000))).toThrow(expect.objectContaining({ refusal: expect.objectContaining({ reason: 'tooMuchMemory' }) }));
  });

  it('streams rows in batches with their row numbers', async () => {
    const file = buildXlsx([{ name: 'big', body: rows(5000) }]);
    let seen = 0;
    let batches = 0;
    let last = 0;
    for await (const batch of streamSheetRows(file, { batchRows: 500 })) {
      expect(batch.sheet).toBe('big');
      batches++;
      for (const row of batch.rows) {
        expect(row.r).toBe(last + 1);
        last = row.r;
        seen++;
      }
    }
    expect(seen).toBe(5000);
    expect(batches).toBe(10);
    // A consumer that stops early ends the read (and its worker) cleanly.
    for await (const batch of streamSheetRows(file, { batchRows: 100 })) {
      expect(batch.rows.length).toBeGreaterThan(0);
      break;
    }
  });

  it('refuses a zip bomb from its declared sizes, before inflating it', async () => {
    const bomb = xlsxBomb(330);
    console.log(`zip bomb: ${(bomb.length / 1e6).toFixed(2)} MB inflating to 330 MB`);
    expect(bomb.length).toBeLessThan(1e6);
    const r = await expectReason(readSheetRows(bomb), 'entryTooLarge');
    expect(r.msg!.zh).toContain('xl/worksheets/sheet1.xml');
    expect(r.msg!.en).toMatch(/330.*MB/);
    // A smaller bomb under the size caps is still refused for its compression ratio.
    await expectReason(readSheetRows(xlsxBomb(40)), 'ratio');
    // And by the total when each part is under the per-part cap.
    await expectReason(readSheetRows(xlsxBomb(40), { limits: { maxRatio: 10_000, maxEntryBytes: 50 << 20, maxTotalBytes: 30 << 20 } }), 'totalTooLarge');
  });

  it('refuses, while inflating, a file whose central directory lies about the sizes', async () => {
    const body = rows(20_000, 10); // about 4 MB of sheet XML declared as 1 kB
    const lying = buildXlsx([{ name: 'liar', body, declaredSize: 1000 }]);
    const r = await expectReason(readSheetRows(lying), 'sizeMismatch');
    expect(r.msg!.en).toContain('xl/worksheets/sheet1.xml');
  });

  it('refuses too many rows, too many columns and overlong cells', async () => {
    const many = buildXlsx([{ name: 'rows', body: rows(3000) }]);
    const r = await expectReason(readSheetRows(many, { limits: { maxRows: 2000 } }), 'tooManyRows');
    expect(r.msg!.zh).toContain('2000');
    expect(r.msg!.en).toContain('2000');
    // A far-away row number counts, not the number of rows written.
    await expectReason(readSheetRows(buildXlsx([{ name: 's', body: rowXml(1, ['a']) + rowXml(1_048_576, ['b']) }]), { limits: { maxRows: 2000 } }), 'tooManyRows');
    const wide = buildXlsx([{ name: 'cols', body: rowXml(1, Array.from({ length: 300 }, (_, i) => i)) }]);
    await expectReason(readSheetRows(wide, { limits: { maxColumns: 256 } }), 'tooManyColumns');
    await expectReason(readSheetRows(buildXlsx([{ name: 's', body: '<row r="1"><c r="XFD1"><v>1</v></c></row>' }]), { limits: { maxColumns: 256 } }), 'tooManyColumns');
    const long = buildXlsx([{ name: 'long', body: rowXml(1, ['x'.repeat(40_000)]) }]);
    await expectReason(readSheetRows(long), 'cellTooLong');
    // Within the limits the same files read.
    expect((await readSheetRows(many, { limits: { maxRows: 3000 } })).sheets[0]!.rows.length).toBe(3000);
  });

  it('refuses a zip with too many entries before reading any', async () => {
    const extra = Array.from({ length: 2000 }, (_, i) => ({ name: `junk/${i}.txt`, data: Buffer.from('x') }));
    const r = await expectReason(readSheetRows(buildXlsx([{ name: 's', body: rows(2) }], extra)), 'tooManyEntries');
    expect(r.msg!.en).toContain('2005');
  });

  it('refuses files that are not spreadsheets', async () => {
    await expectReason(readSheetRows(Buffer.from('hello, world')), 'notXlsx');
    await expectReason(readSheetRows(Buffer.alloc(0)), 'notXlsx');
    // A zip, but not a workbook.
    await expectReason(readSheetRows(buildZip([{ name: 'a.txt', data: Buffer.from('hi') }])), 'notXlsx');
    // A workbook whose sheet is not XML.
    await expectReason(readSheetRows(buildXlsx([{ name: 's', body: '<row><c><v>1</v></row></c>' }])), 'notXlsx');
    // Entity expansion (billion laughs) is not done: the undefined entity makes it a bad file.
    const laughs = '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>';
    const sheet = `<?xml version="1.0"?>${laughs}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&c;&c;&c;</t></is></c></row></sheetData></worksheet>`;
    await expectReason(readSheetRows(buildXlsx([{ name: 's', xml: sheet }])), 'notXlsx');
    // Styled cells and rows with no value do not count against the limits.
    const styled = buildXlsx([{ name: 's', body: `${rowXml(1, ['a'])}<row r="1048576" s="1" customFormat="1"><c r="XFD1048576" s="1"/></row>` }]);
    expect((await readSheetRows(styled, { limits: { maxRows: 10, maxColumns: 10 } })).sheets[0]!.rows).toEqual([['a']]);
    // Too big to take at all.
    await expectReason(readSheetRows(Buffer.alloc(2048), { limits: { maxFileBytes: 1024 } }), 'fileTooLarge');
  });

  it('gives up on a read that takes too long (the worker is ended)', async () => {
    const file = buildXlsx([{ name: 'big', body: rows(50_000) }]);
    await expectReason(readSheetRows(file, { limits: { timeoutMs: 1 } }), 'timeout');
  });

  it('runs at most MAX_WORKERS parses at once; the others wait their turn', async () => {
    const file = buildXlsx([{ name: 's', body: rows(2000) }]);
    let most = 0;
    const reads = Array.from({ length: MAX_WORKERS + 3 }, async () => {
      let n = 0;
      for await (const b of streamSheetRows(file, { batchRows: 200 })) {
        most = Math.max(most, uploadWorkers().running);
        n += b.rows.length;
      }
      return n;
    });
    expect(uploadWorkers().waiting).toBe(3);
    expect(await Promise.all(reads)).toEqual(Array(MAX_WORKERS + 3).fill(2000));
    expect(most).toBe(MAX_WORKERS);
    expect(uploadWorkers()).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps the event loop free while it parses', async () => {
    // Count event-loop turns while a big (allowed) file is read: with the parse off the thread
    // the loop keeps turning; a parse on the thread would let it turn only between its chunks.
    const file = buildXlsx([{ name: 'big', body: rows(60_000, 8) }]);
    let turns = 0;
    let reading = true;
    const spin = async () => {
      while (reading) {
        await new Promise<void>((r) => setImmediate(r));
        turns++;
      }
    };
    const spinner = spin();
    let rowsRead = 0;
    for await (const b of streamSheetRows(file, { batchRows: 1000 })) rowsRead += b.rows.length;
    reading = false;
    await spinner;
    expect(rowsRead).toBe(60_000);
    // Far more turns than batches arrived: the loop turned while the worker parsed.
    expect(turns).toBeGreaterThan(rowsRead / 1000 * 5);
  });
});
