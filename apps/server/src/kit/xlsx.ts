import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

/** The content type of a .xlsx download. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A cell that a spreadsheet would run as a formula (= + - @, also after a tab or CR) is written as text (DESIGN §6). */
export const escapeCell = (v: unknown): unknown => (typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/** Adds rows to the sheet being streamed; resolves once the output has room for more. */
export type AddRows = (rows: unknown[][]) => Promise<void>;

/**
 * A .xlsx streamed as it is written: the header row (escaped) first, then whatever `fill` adds
 * batch by batch. Every cell is escaped; after each batch the writer waits while the client's end
 * is full, so memory holds about one batch whatever the number of rows. A failure while filling
 * ends the download with an error (the client sees a broken file, never a silently short one).
 * The header is always written, so an empty result is a file with its headers.
 */
export function streamXlsx(sheetName: string, header: string[], fill: (add: AddRows) => Promise<void>): PassThrough {
  const body = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: body, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName);
  const add: AddRows = async (rows) => {
    for (const r of rows) ws.addRow(r.map(escapeCell)).commit();
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
