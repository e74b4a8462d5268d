import { once } from 'node:events';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { streamXlsx } from './xlsx.js';

const drain = async (body: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

const read = async (file: Buffer) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(file as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
};

describe('streamXlsx', () => {
  it('writes a workbook exceljs reads back: header, text, numbers, booleans, dates, empty cells, escaping, widths', async () => {
    const at = new Date('2026-03-04T00:00:00Z');
    const body = streamXlsx(
      '报告 & <明细>',
      ['姓名', '=SUM(A1)', 'n'],
      async (add) => {
        await add([
          ['张三', 'a & b < c > "d"', 12.5, true, at, null, undefined, '', ' padded ', '末'],
          ['+1', '-2', '@x', '\tTab', 'ok\u0001\u0008ctl', 0, -3, false, '😀'],
        ]);
        await add([]);
      },
      [12, 30],
    );
    const ws = await read(await drain(body));
    expect(ws.name).toBe('报告 & <明细>');
    expect(ws.getRow(1).values).toEqual([undefined, '姓名', "'=SUM(A1)", 'n']);
    const r2 = ws.getRow(2);
    expect([1, 2, 3, 4].map((c) => r2.getCell(c).value)).toEqual(['张三', 'a & b < c > "d"', 12.5, true]);
    expect(r2.getCell(5).value).toEqual(at);
    // null, undefined and '' are empty cells (as exceljs's own writer made them).
    expect([6, 7, 8].map((c) => r2.getCell(c).value)).toEqual([null, null, null]);
    expect(r2.getCell(9).value).toBe(' padded ');
    expect(r2.getCell(10).value).toBe('末');
    // Formula starts are written as text; characters XML cannot hold are dropped.
    expect(ws.getRow(3).values).toEqual([undefined, "'+1", "'-2", "'@x", "'\tTab", 'okctl', 0, -3, false, '😀']);
    expect(ws.rowCount).toBe(3);
    expect([ws.getColumn(1).width, ws.getColumn(2).width]).toEqual([12, 30]);
  });

  it('writes instants given as ISO text in the institution’s time zone, as the console shows them', async () => {
    const ws = await read(
      await drain(streamXlsx('S', ['at', 'note'], async (add) => add([['2026-11-25T01:30:05.000Z', 'at 2026-11-25T01:30:05.000Z']]))),
    );
    expect(ws.getCell('A2').value).toBe('2026-11-25 09:30:05');
    // Only a whole cell that is an instant: text that mentions one stays as written.
    expect(ws.getCell('B2').value).toBe('at 2026-11-25T01:30:05.000Z');
  });

  it('an empty export is a file with its headers; column letters go past Z', async () => {
    const header = Array.from({ length: 30 }, (_, i) => `h${i + 1}`);
    const ws = await read(await drain(streamXlsx('S', header, async () => {})));
    expect(ws.rowCount).toBe(1);
    expect(ws.getRow(1).getCell(28).value).toBe('h28');
    expect(ws.getCell('AD1').value).toBe('h30');
  });

  it('rows wait for the client: nothing piles up while it does not read, and all arrive once it does', async () => {
    let written = 0;
    const body = streamXlsx('S', ['i', 'text'], async (add) => {
      for (let b = 0; b < 20; b++) {
        await add(Array.from({ length: 1000 }, (_, i) => [b * 1000 + i, `row ${b * 1000 + i} ${'x'.repeat(40)}`]));
        written += 1000;
      }
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(written).toBeLessThan(20_000);
    const ws = await read(await drain(body));
    expect(written).toBe(20_000);
    expect(ws.rowCount).toBe(20_001);
    expect(ws.getRow(20_001).values).toEqual([undefined, 19_999, `row 19999 ${'x'.repeat(40)}`]);
  });

  it('a failure while filling breaks the download; a client that goes away stops the filling', async () => {
    const failed = streamXlsx('S', ['a'], async () => {
      throw new Error('database gone');
    });
    await expect(drain(failed)).rejects.toThrow('database gone');

    let stopped: unknown;
    const body = streamXlsx('S', ['a'], async (add) => {
      try {
        for (let i = 0; ; i++) await add([[`${i} ${'y'.repeat(200)}`]]);
      } catch (e) {
        stopped = e;
        throw e;
      }
    });
    const sink = new Writable({ highWaterMark: 1, write: (_c, _e, done) => setTimeout(done, 5) });
    body.pipe(sink);
    await new Promise((r) => setTimeout(r, 100));
    body.destroy();
    await once(body, 'close');
    await new Promise((r) => setTimeout(r, 100));
    expect(stopped).toBeInstanceOf(Error);
  });
});
