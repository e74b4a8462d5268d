/**
 * The parsing half of the guarded reader, run inside the worker thread (reader.ts starts it).
 *
 * 1. The zip's central directory is read (yauzl) and judged before a byte is inflated: entry
 *    count, each entry's declared uncompressed size, their total, the compression ratio, and the
 *    compression method.
 * 2. Only the parts needed are inflated, each as a stream whose bytes are counted: a part that
 *    inflates to more than it declared is refused at once (yauzl's own size check and ours).
 * 3. The XML is parsed as it streams (saxes): shared strings first (kept, bounded by the part's
 *    size), then each sheet's rows, which are handed on in batches and not kept.
 *
 * Why not exceljs's streaming WorkbookReader: it inflates with its own zip stream parser over
 * the local headers, so the central directory cannot be judged first and inflated bytes cannot
 * be counted; it also spools sheets to temporary files when the shared strings come later.
 */
import { StringDecoder } from 'node:string_decoder';
import { posix } from 'node:path';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl from 'yauzl';
import { refusals, refuse, RefusalError, type Refusal, type UploadLimits } from './limits.js';

export type CellValue = string | number | boolean | null;

export interface SheetRow {
  /** The row number in the sheet (1 = first row). */
  r: number;
  /** Cells by column (index 0 = column A); missing cells are null; trailing nulls are left off. */
  cells: CellValue[];
}

/** Which sheets to read: all (in workbook order), the first, or one by name (or else the first). */
export type SheetPick = 'all' | 'first' | { name: string; orFirst?: boolean };

export type ParseEvent = { kind: 'sheet'; name: string } | { kind: 'rows'; rows: SheetRow[] };

/** What reader.ts gives its worker (worker.ts), and what the worker posts back. */
export interface WorkerInput {
  bytes: Uint8Array;
  limits: UploadLimits;
  pick: SheetPick;
  batchRows: number;
  /** Row batches the worker may post before the parent asks for more. */
  credit: number;
}
export type WorkerMessage = ParseEvent | { kind: 'done' } | { kind: 'refused'; refusal: Refusal } | { kind: 'failed'; message: string };

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const attr = (tag: SaxesTagPlain, local: string): string | undefined => {
  for (const [k, v] of Object.entries(tag.attributes)) if (localName(k) === local) return v as string;
  return undefined;
};

/** Column number (1-based) of a cell reference such as "AB12"; 0 when it has none. */
function columnOf(ref: string | undefined): number {
  if (!ref) return 0;
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
    if (n > 1e6) break;
  }
  return n;
}

function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return posix.normalize(posix.join(posix.dirname(base), target));
}

function relsPathOf(part: string): string {
  return posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
}

/**
 * The shared strings of a workbook, kept as UTF-8 in one buffer with where each ends, and decoded
 * when a cell names one. A 50,000-person roster has 150,000 of them: as JS strings they held
 * ~15 MiB of the worker's heap (a string object each, many still slices of the inflated chunks),
 * as bytes they take about what their text does (~3 MiB). Being outside the heap they are not
 * bounded by the worker's heap limit, so they get one of their own: as many bytes as that heap.
 */
export class SharedStrings {
  private bytes: Buffer = Buffer.allocUnsafe(64 * 1024);
  private ends = new Uint32Array(1024);
  private used = 0;
  private count = 0;

  constructor(private readonly maxBytes: number) {}

  get length() {
    return this.count;
  }

  push(text: string) {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8: room for that, so the write is whole.
    const need = this.used + text.length * 3;
    if (need > this.bytes.length) {
      if (need > this.maxBytes) refuse(refusals.tooMuchMemory());
      this.bytes = grown(this.bytes, Math.min(Math.max(need, this.bytes.length * 2), this.maxBytes), this.used);
    }
    this.used += this.bytes.write(text, this.used, 'utf8');
    if (this.count === this.ends.length) {
      const ends = new Uint32Array(this.count * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    this.ends[this.count++] = this.used;
  }

  /** The string at `index` (as a cell's text holds it), or null when there is none. */
  at(index: number): string | null {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return null;
    return this.bytes.toString('utf8', index ? this.ends[index - 1] : 0, this.ends[index]);
  }
}

/** A copy of `buf`'s first `used` bytes in a buffer of `size` bytes. */
function grown(buf: Buffer, size: number, used: number): Buffer {
  const next = Buffer.allocUnsafe(size);
  buf.copy(next, 0, 0, used);
  return next;
}

export async function* parseWorkbook(bytes: Uint8Array, limits: UploadLimits, pick: SheetPick = 'all', batchRows = 1000): AsyncGenerator<ParseEvent> {
  if (bytes.length > limits.maxFileBytes) refuse(refusals.fileTooLarge(bytes.length, limits.maxFileBytes));
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  // 1. The central directory, judged before anything is inflated.
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true });
  } catch {
    return refuse(refusals.notXlsx());
  }
  try {
    if (zip.entryCount > limits.maxEntries) refuse(refusals.tooManyEntries(zip.entryCount, limits.maxEntries));
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    try {
      for await (const e of zip.eachEntry()) {
        if (e.fileName.endsWith('/')) continue;
        if (e.uncompressedSize > limits.maxEntryBytes) refuse(refusals.entryTooLarge(e.fileName, e.uncompressedSize, limits.maxEntryBytes));
        if (e.uncompressedSize > limits.ratioFloorBytes && e.uncompressedSize / Math.max(e.compressedSize, 1) > limits.maxRatio)
          refuse(refusals.ratio(e.fileName, e.uncompressedSize / Math.max(e.compressedSize, 1), limits.maxRatio));
        total += e.uncompressedSize;
        if (total > limits.maxTotalBytes) refuse(refusals.totalTooLarge(total, limits.maxTotalBytes));
        entries.set(e.fileName, e);
      }
    } catch (err) {
      if (err instanceof RefusalError) throw err;
      return refuse(refusals.notXlsx());
    }

    let inflated = 0;
    /** Inflates one part as text, counting its bytes against what it declared and the limits. */
    async function* inflate(name: string): AsyncGenerator<string> {
      const entry = entries.get(name)!;
      if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)) refuse(refusals.unsupported(name));
      let stream: NodeJS.ReadableStream & { destroy(): void };
      try {
        stream = (await zip.openReadStreamPromise(entry)) as typeof stream;
      } catch {
        return refuse(refusals.notXlsx());
      }
      const decoder = new StringDecoder('utf8');
      let n = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          n += chunk.length;
          inflated += chunk.length;
          if (n > entry.uncompressedSize || n > limits.maxEntryBytes || inflated > limits.maxTotalBytes) {
            stream.destroy();
            refuse(refusals.sizeMismatch(name));
          }
          yield decoder.write(chunk);
        }
      } catch (err) {
        if (err instanceof RefusalError) throw err;
        // yauzl's own check: "too many bytes in the stream" / "too few bytes".
        if (/bytes/.test(String((err as Error)?.message))) refuse(refusals.sizeMismatch(name));
        refuse(refusals.notXlsx());
      } finally {
        stream.destroy();
      }
      const rest = decoder.end();
      if (rest) yield rest;
    }

    /** Parses one XML part as it inflates; `on` attaches the handlers; yields after each chunk. */
    async function* xml(name: string, on: (p: SaxesParser) => void): AsyncGenerator<void> {
      const parser = new SaxesParser({ position: false });
      let failed = false;
      parser.on('error', () => {
        failed = true;
      });
      on(parser);
      for await (const text of inflate(name)) {
        parser.write(text);
        if (failed) refuse(refusals.notXlsx());
        yield;
      }
      parser.close();
      if (failed) refuse(refusals.notXlsx());
    }
    const drain = async (g: AsyncGenerator<void>) => {
      for await (const _ of g);
    };
    const readRels = async (part: string): Promise<Map<string, { type: string; target: string }>> => {
      const rels = new Map<string, { type: string; target: string }>();
      const path = relsPathOf(part);
      if (!entries.has(path)) return rels;
      await drain(
        xml(path, (p) =>
          p.on('opentag', (t) => {
            if (localName(t.name) !== 'Relationship') return;
            const id = attr(t, 'Id');
            const target = attr(t, 'Target');
            if (id && target && attr(t, 'TargetMode') !== 'External') rels.set(id, { type: attr(t, 'Type') ?? '', target: resolveTarget(part, target) });
          }),
        ),
      );
      return rels;
    };

    // 2. Where the workbook, its sheets and shared strings are.
    const rootRels = await readRels('');
    const workbookPath = [...rootRels.values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
    if (!entries.has(workbookPath)) refuse(refusals.notXlsx());
    const sheetList: { name: string; rid: string }[] = [];
    await drain(
      xml(workbookPath, (p) =>
        p.on('opentag', (t) => {
          if (localName(t.name) === 'sheet' && sheetList.length < 10_000) sheetList.push({ name: attr(t, 'name') ?? '', rid: attr(t, 'id') ?? '' });
        }),
      ),
    );
    const wbRels = await readRels(workbookPath);
    const sheets = sheetList.map((s) => ({ name: s.name, path: wbRels.get(s.rid)?.target })).filter((s): s is { name: string; path: string } => !!s.path && entries.has(s.path));
    let chosen = sheets;
    if (pick === 'first') chosen = sheets.slice(0, 1);
    else if (pick !== 'all') {
      const named = sheets.filter((s) => s.name === pick.name);
      chosen = named.length ? named.slice(0, 1) : pick.orFirst ? sheets.slice(0, 1) : [];
    }

    // 3. Shared strings, only when a chosen sheet may need them.
    const shared = new SharedStrings(limits.maxHeapMb * 2 ** 20);
    const sstPath = [...wbRels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target;
    if (chosen.length && sstPath && entries.has(sstPath)) {
      let inSi = false;
      let inT = false;
      let phonetic = 0;
      let text = '';
      const onText = (s: string) => {
        if (inT && !phonetic) text += s;
      };
      await drain(
        xml(sstPath, (p) => {
          p.on('opentag', (t) => {
            const n = localName(t.name);
            if (n === 'si') {
              inSi = true;
              text = '';
            } else if (n === 't' && inSi) inT = true;
            else if (n === 'rPh') phonetic++;
          });
          p.on('closetag', (t) => {
            const n = localName(t.name);
            if (n === 'si') {
              inSi = false;
              shared.push(text);
            } else if (n === 't') inT = false;
            else if (n === 'rPh') phonetic--;
          });
          p.on('text', onText);
          p.on('cdata', onText);
        }),
      );
    }

    // 4. The rows of each chosen sheet, in batches.
    for (const sheet of chosen) {
      yield { kind: 'sheet', name: sheet.name };
      const batch: SheetRow[] = [];
      let rowNo = 0;
      let cells: CellValue[] | null = null;
      let col = 0;
      let type = '';
      let value = '';
      let inline = '';
      let where: 'v' | 't' | null = null;
      let inIs = false;
      let phonetic = 0;
      const onText = (s: string) => {
        if (where === 'v') value += s;
        else if (where === 't' && !phonetic) inline += s;
        else return;
        if (value.length > limits.maxCellChars || inline.length > limits.maxCellChars) refuse(refusals.cellTooLong(sheet.name, rowNo, limits.maxCellChars));
      };
      const parser = xml(sheet.path, (p) => {
        p.on('opentag', (t) => {
          switch (localName(t.name)) {
            case 'row': {
              const r = Number(attr(t, 'r'));
              rowNo = Number.isInteger(r) && r > rowNo ? r : rowNo + 1;
              cells = [];
              col = 0;
              break;
            }
            case 'c': {
              const c = columnOf(attr(t, 'r'));
              col = c > col ? c : col + 1;
              type = attr(t, 't') ?? 'n';
              value = '';
              inline = '';
              break;
            }
            case 'v':
              where = 'v';
              break;
            case 'is':
              inIs = true;
              break;
            case 't':
              if (inIs) where = 't';
              break;
            case 'rPh':
              phonetic++;
              break;
          }
        });
        p.on('closetag', (t) => {
          switch (localName(t.name)) {
            case 'v':
            case 't':
              where = null;
              break;
            case 'is':
              inIs = false;
              break;
            case 'rPh':
              phonetic--;
              break;
            case 'c': {
              let v: CellValue;
              if (type === 's') v = shared.at(Number(value));
              else if (type === 'inlineStr') v = inline;
              else if (type === 'b') v = value === '1' || value === 'true';
              else if (type === 'str' || type === 'e' || type === 'd') v = value;
              else v = value === '' ? null : Number.isFinite(Number(value)) ? Number(value) : value;
              if (typeof v === 'string' && v.length > limits.maxCellChars) refuse(refusals.cellTooLong(sheet.name, rowNo, limits.maxCellChars));
              // Rows and columns count where a value is: cells and rows with only a style
              // (a formatted but empty row far down) are common in real files.
              if (v !== null && v !== '' && cells) {
                if (rowNo > limits.maxRows) refuse(refusals.tooManyRows(sheet.name, limits.maxRows));
                if (col > limits.maxColumns) refuse(refusals.tooManyColumns(sheet.name, limits.maxColumns));
                while (cells.length < col - 1) cells.push(null);
                cells[col - 1] = v;
              }
              break;
            }
            case 'row':
              if (cells?.length) batch.push({ r: rowNo, cells });
              cells = null;
              break;
          }
        });
        p.on('text', onText);
        p.on('cdata', onText);
      });
      for await (const _ of parser) {
        while (batch.length >= batchRows) yield { kind: 'rows', rows: batch.splice(0, batchRows) };
      }
      if (batch.length) yield { kind: 'rows', rows: batch };
    }
  } finally {
    zip.close();
  }
}
