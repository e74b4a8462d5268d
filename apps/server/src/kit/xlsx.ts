import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

/** The content type of a .xlsx download. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A cell that a spreadsheet would run as a formula (= + - @, also after a tab or CR) is written as text (DESIGN §6). */
export const escapeCell = (v: unknown): unknown => (typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/**
 * Waits while the zip's input is full. exceljs writes a sheet's rows into the zip's input stream
 * without looking at its answer, so rows made faster than the compressor (or the client) takes
 * them would pile up in memory. That input stream marks itself "needs drain" once it holds more
 * than its high-water mark; waiting for its drain after each batch is the backpressure the writer
 * lacks. (It reads exceljs internals: if they change, this stops waiting rather than hanging.)
 */
function flushed(ws: ExcelJS.Worksheet): Promise<unknown> {
  type Input = NodeJS.EventEmitter & { _writableState?: { needDrain?: boolean } };
  const input = (ws as unknown as { stream?: { pipes?: Input[] } }).stream?.pipes?.[0];
  return input?._writableState?.needDrain ? once(input, 'drain') : Promise.resolve();
}

/** Adds rows to the sheet being streamed; resolves once the output has room for more. */
export type AddRows = (rows: unknown[][]) => Promise<void>;

/**
 * A .xlsx streamed as it is written: the header row (escaped) first, then whatever `fill` adds
 * batch by batch. Every cell is escaped; after each batch the writer waits while the client's end
 * is full, so memory holds about one batch whatever the number of rows. A failure while filling
 * ends the download with an error (the client sees a broken file, never a silently short one).
 * The header is always written, so an empty result is a file with its headers. `widths` (in
 * characters) sets the columns' widths where a sheet is read by people as it opens.
 */
export function streamXlsx(sheetName: string, header: string[], fill: (add: AddRows) => Promise<void>, widths?: number[]): PassThrough {
  const body = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: body, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName);
  if (widths) ws.columns = widths.map((width) => ({ width }));
  const add: AddRows = async (rows) => {
    for (const r of rows) ws.addRow(r.map(escapeCell)).commit();
    await flushed(ws);
    if (body.writableNeedDrain) await once(body, 'drain');
  };
  const run = async () => {
    ws.addRow(header.map(escapeCell)).commit();
    await fill(add);
    ws.commit();
    await wb.commit();
  };
  run().catch((e: unknown) => body.destroy(e instanceof Error ? e : new Error(String(e))));
  return body;
}
