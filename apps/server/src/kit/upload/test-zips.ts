/**
 * Test support: builds .xlsx files byte by byte, so tests can make files that no well-behaved
 * zip library would write (a central directory that lies about sizes, a zip bomb, thousands of
 * entries). Nothing here is used by the server.
 */
import { crc32, deflateRawSync, constants } from 'node:zlib';

export interface ZipPart {
  name: string;
  /** The content, or a repeated chunk: `repeat` copies of `data` (a bomb without holding it in memory). */
  data: Buffer;
  repeat?: number;
  /** Declare this uncompressed size in the headers instead of the real one (a lying file). */
  declaredSize?: number;
  store?: boolean;
}

/** Compressed bytes of `repeat` copies of `data`, without ever holding the inflated whole. */
function deflateRepeated(data: Buffer, repeat: number): { bytes: Buffer; crc: number; size: number } {
  // After a full flush the compressor forgets its history, so every copy compresses to the same
  // bytes: compress one copy once and repeat it.
  const segment = deflateRawSync(data, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const end = deflateRawSync(Buffer.alloc(0));
  let crc = 0;
  for (let i = 0; i < repeat; i++) crc = crc32(data, crc);
  return { bytes: Buffer.concat([...Array.from({ length: repeat }, () => segment), end]), crc, size: data.length * repeat };
}

export function buildZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const { bytes, crc, size } = p.store
      ? { bytes: p.data, crc: crc32(p.data), size: p.data.length }
      : p.repeat
        ? deflateRepeated(p.data, p.repeat)
        : { bytes: deflateRawSync(p.data), crc: crc32(p.data), size: p.data.length };
    const declared = p.declaredSize ?? size;
    const method = p.store ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(bytes.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, bytes);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(bytes.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + bytes.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Column letters of a 1-based column number. */
export function colName(n: number): string {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** One row of inline-string / number cells as sheet XML. */
export function rowXml(r: number, cells: (string | number)[]): string {
  const cs = cells.map((v, i) => (typeof v === 'number' ? `<c r="${colName(i + 1)}${r}"><v>${v}</v></c>` : `<c r="${colName(i + 1)}${r}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`));
  return `<row r="${r}">${cs.join('')}</row>`;
}

export interface SheetSpec {
  name: string;
  /** Sheet XML between <sheetData> and </sheetData>. */
  body?: string;
  /** Or the whole sheet part. */
  xml?: string;
  /** Or a chunk repeated `repeat` times (a bomb). */
  repeat?: { chunk: string; times: number };
  declaredSize?: number;
}

/** A minimal .xlsx (inline strings, no styles) with the given sheets, plus extra zip parts. */
export function buildXlsx(sheets: SheetSpec[], extra: ZipPart[] = []): Buffer {
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
  const tail = '</sheetData></worksheet>';
  const sheetParts: ZipPart[] = sheets.map((s, i) => {
    const name = `xl/worksheets/sheet${i + 1}.xml`;
    if (!s.repeat) return { name, data: Buffer.from(s.xml ?? head + (s.body ?? '') + tail), declaredSize: s.declaredSize };
    // A bomb: the chunk repeated; the head and tail are left off so the XML is cut short (the
    // reader must refuse the file long before it could notice).
    return { name, data: Buffer.from(s.repeat.chunk), repeat: s.repeat.times, declaredSize: s.declaredSize };
  });
  return buildZip([
    {
      name: '[Content_Types].xml',
      data: xml(
        `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}</Types>`,
      ),
    },
    { name: '_rels/.rels', data: xml('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>') },
    {
      name: 'xl/workbook.xml',
      data: xml(
        `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets.map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`,
      ),
    },
    ...sheetParts,
    ...extra,
  ]);
}

/**
 * The zip bomb of issue 8: a sheet of `mb` MB of repeated rows that compresses to about 1/650 of
 * that (330 MB in 0.5 MB), with honest headers.
 */
export function xlsxBomb(mb = 330): Buffer {
  // Rows with runs of blanks between them (legal XML) compress best: about 650 to 1.
  const chunk = `<row><c t="inlineStr"><is><t>炸弹 bomb</t></is></c><c><v>1</v></c><c><v>2</v></c></row>${' '.repeat(4000)}`.repeat(250);
  const times = Math.ceil((mb * 1024 * 1024) / Buffer.byteLength(chunk));
  return buildXlsx([{ name: '题目 Questions', repeat: { chunk, times } }]);
}
