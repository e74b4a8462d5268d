import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import yazl from 'yazl';
import { INSTITUTION_TIME_ZONE, timeInZone } from '@xinli/contract';

/** The content type of a .xlsx download. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A cell that a spreadsheet would run as a formula (= + - @, also after a tab or CR) is written as text (DESIGN §6). */
export const escapeCell = (v: unknown): unknown => (typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/** Adds rows to the sheet being streamed; resolves once the output has room for more. */
export type AddRows = (rows: unknown[][]) => Promise<void>;

// ---------- the parts of a one-sheet workbook ----------
// The sheet is written as XML text straight into a zip entry (yazl deflates it on the way out).
// exceljs's streaming writer did this job before; it makes some 28 KB of short-lived objects per
// row (row, cell and model objects), and with a batch of rows alive across the collections that
// this churn causes, the batch was promoted to the old generation each time: a 1,000,000-row
// export grew the heap by hundreds of MB of garbage before V8 collected it (notes in
// bench/export.ts). Cells are encoded as exceljs encoded them (t="str" text, numbers, t="b"
// booleans, dates as serial days with the date style), so the files read back the same.

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = 'http://schemas.openxmlformats.org';
const REL = `${NS}/officeDocument/2006/relationships`;
const CONTENT_TYPES = `${XML}<Types xmlns="${NS}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const ROOT_RELS = `${XML}<Relationships xmlns="${NS}/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `${XML}<Relationships xmlns="${NS}/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId2" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
/** Style 0 is the default, style 1 the built-in date format (numFmt 14) that date cells use. */
const STYLES = `${XML}<styleSheet xmlns="${NS}/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
const workbookXml = (sheetName: string) =>
  `${XML}<workbook xmlns="${NS}/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets><sheet name="${text(sheetName)}" sheetId="1" r:id="rId2"/></sheets></workbook>`;
const sheetStart = (widths?: number[]) =>
  `${XML}<worksheet xmlns="${NS}/spreadsheetml/2006/main" xmlns:r="${REL}">` +
  (widths?.length
    ? `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`
    : '') +
  '<sheetData>';
const SHEET_END = '</sheetData></worksheet>';
/** The entries' time: fixed, so the same rows make the same file. */
const MTIME = new Date(Date.UTC(2000, 0, 1));

/** Markup, and what XML cannot hold: control characters, U+FFFE/U+FFFF, unpaired surrogates. */
/* eslint-disable no-control-regex -- the control characters are what it removes */
const NOT_TEXT =
  /[&<>"]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */
/** Text as XML character data: markup escaped, characters XML cannot hold dropped. */
const text = (s: string) =>
  s.replace(NOT_TEXT, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : ''));

/** Column letters A, B, … AA, …, kept as they are made. */
const letters: string[] = [];
const column = (i: number) => {
  for (let n = letters.length; n <= i; n++) {
    let s = '';
    for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
    letters.push(s);
  }
  return letters[i]!;
};

/** One cell's XML (empty for null and undefined), encoded as exceljs does. */
function cell(ref: string, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? `<c r="${ref}"><v>${v}</v></c>` : cell(ref, String(v));
  if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : `<c r="${ref}" s="1"><v>${v.getTime() / 86_400_000 + 25_569}</v></c>`;
  return `<c r="${ref}" t="str"><v>${text(typeof v === 'string' ? v : typeof v === 'bigint' ? v.toString() : JSON.stringify(v))}</v></c>`;
}

/** An instant as the wire carries it (`2026-11-25T01:30:05.000Z`). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Instants read in the institution's zone in every export, as the console shows them (issue 28 item 12). */
const localInstant = (v: unknown): unknown =>
  typeof v === 'string' && ISO_INSTANT.test(v) ? timeInZone(v, INSTITUTION_TIME_ZONE, true) : v;

/** A row's XML; every cell is escaped (escapeCell) on the way. */
function rowXml(n: number, cells: unknown[]): string {
  let s = `<row r="${n}">`;
  for (let i = 0; i < cells.length; i++) s += cell(`${column(i)}${n}`, escapeCell(localInstant(cells[i])));
  return `${s}</row>`;
}

/**
 * A .xlsx streamed as it is written: the header row (escaped) first, then whatever `fill` adds
 * batch by batch. Every cell is escaped; after each batch the writer waits while the sheet's
 * entry is full (its bytes wait for the compressor, the compressor for the client), so memory
 * holds about one batch whatever the number of rows. A failure while filling, or the client
 * going away, ends the download (the client sees a broken file, never a silently short one).
 * The header is always written, so an empty result is a file with its headers. `widths` (in
 * characters) sets the columns' widths where a sheet is read by people as it opens.
 */
export function streamXlsx(sheetName: string, header: string[], fill: (add: AddRows) => Promise<void>, widths?: number[]): PassThrough {
  const body = new PassThrough();
  const sheet = new PassThrough();
  const zip = new yazl.ZipFile();
  const options = { mtime: MTIME };
  zip.addBuffer(Buffer.from(CONTENT_TYPES), '[Content_Types].xml', options);
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels', options);
  zip.addBuffer(Buffer.from(workbookXml(sheetName)), 'xl/workbook.xml', options);
  zip.addBuffer(Buffer.from(WORKBOOK_RELS), 'xl/_rels/workbook.xml.rels', options);
  zip.addBuffer(Buffer.from(STYLES), 'xl/styles.xml', options);
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml', options);
  zip.end();
  zip.outputStream.pipe(body);

  // The body closes when the download ends, finished or not: no more waiting for room after that.
  const gone = new AbortController();
  body.once('close', () => gone.abort());
  let n = 0;
  const add: AddRows = async (rows) => {
    if (gone.signal.aborted) throw new Error('the download was closed');
    let chunk = '';
    for (const r of rows) chunk += rowXml(++n, r);
    if (!sheet.write(chunk)) await once(sheet, 'drain', { signal: gone.signal });
  };
  const run = async () => {
    sheet.write(sheetStart(widths));
    await add([header]);
    await fill(add);
    sheet.end(SHEET_END);
  };
  run().catch((e: unknown) => {
    sheet.destroy();
    body.destroy(e instanceof Error ? e : new Error(String(e)));
  });
  return body;
}
