/**
 * Roster files for tests and the bench: the real template's header with rows written by
 * exceljs's streaming writer (as a spreadsheet program would save them).
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { idCardCheckChar } from '@xinli/contract';
import { ROSTER_SHEET } from './roster.js';

/** The header row of a template file (as downloaded). */
export async function templateHeader(template: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const row = wb.getWorksheet(ROSTER_SHEET)!.getRow(1);
  return (row.values as unknown[]).slice(1).map((v) => String(v ?? ''));
}

/** An .xlsx with one roster sheet: the header, then the rows. */
export async function rosterFile(header: string[], rows: Iterable<(string | number | null)[]>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => out.on('end', r));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
  const ws = wb.addWorksheet(ROSTER_SHEET);
  ws.addRow(header).commit();
  for (const r of rows) ws.addRow(r).commit();
  ws.commit();
  await wb.commit();
  await done;
  return Buffer.concat(chunks);
}

/** A valid ID number from region, birth date (YYYYMMDD) and a 3-digit sequence. */
export const idNumber = (region: string, birth: string, seq: number) => {
  const first17 = `${region}${birth}${String(seq).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
};

/**
 * n valid older-adult rows in the ZLB template's column order: name, gender, birth date, phone,
 * ID number, then archive q1 living arrangement (required), q2 chronic conditions, q3 contact,
 * q4 region, q5 sleep hours. ID numbers are distinct for i below 90,000.
 */
export function* olderAdultRows(n: number, from = 0): Generator<(string | number | null)[]> {
  for (let i = from; i < from + n; i++) {
    const birth = `19${40 + (i % 30)}0${1 + (i % 9)}1${i % 10}`;
    const id = idNumber('330102', birth, Math.floor(i / 90));
    yield [`老人${i}`, i % 2 ? '男' : '女', `${birth.slice(0, 4)}-${birth.slice(4, 6)}-${birth.slice(6)}`, `139${String(i).padStart(8, '0')}`, id, '与配偶同住', '高血压,糖尿病', null, '330102', 7.5];
  }
}
