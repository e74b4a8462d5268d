/**
 * Limits of the guarded spreadsheet reader and the refusals it gives. Shared by the reader and
 * its worker thread, so nothing here imports server code.
 */

export interface UploadLimits {
  /** Size of the uploaded file itself (compressed). */
  maxFileBytes: number;
  /** Entries in the zip's central directory. */
  maxEntries: number;
  /** Declared uncompressed size of any one entry (and bytes actually inflated from it). */
  maxEntryBytes: number;
  /** Declared uncompressed size of all entries together. */
  maxTotalBytes: number;
  /** Uncompressed : compressed size of an entry, checked for entries above `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
  /** Highest row number in a sheet read (a row written as number 1,000,000 counts as 1,000,000). */
  maxRows: number;
  /** Highest column number in a sheet read. */
  maxColumns: number;
  /** Characters in one cell (Excel's own limit is 32,767). */
  maxCellChars: number;
  /** Time for the whole read, in the worker; past it the worker is ended. */
  timeoutMs: number;
  /** Heap of the worker thread (MB); past it the worker dies and the file is refused. */
  maxHeapMb: number;
}

const MiB = 1024 * 1024;

/**
 * Defaults fit person rosters of 50,000 rows (the largest import planned); domains with smaller
 * files pass tighter limits.
 */
export const DEFAULT_LIMITS: UploadLimits = {
  maxFileBytes: 20 * MiB,
  maxEntries: 500,
  maxEntryBytes: 100 * MiB,
  maxTotalBytes: 200 * MiB,
  maxRatio: 200,
  ratioFloorBytes: MiB,
  maxRows: 100_000,
  maxColumns: 256,
  maxCellChars: 32_767,
  timeoutMs: 60_000,
  maxHeapMb: 256,
};

export type RefusalReason =
  | 'notXlsx'
  | 'fileTooLarge'
  | 'tooManyEntries'
  | 'entryTooLarge'
  | 'totalTooLarge'
  | 'ratio'
  | 'sizeMismatch'
  | 'unsupported'
  | 'tooManyRows'
  | 'tooManyColumns'
  | 'cellTooLong'
  | 'timeout'
  | 'tooMuchMemory';

export interface Refusal {
  reason: RefusalReason;
  zh: string;
  en: string;
}

/** Thrown inside the parser and carried across the worker boundary as a plain object. */
export class RefusalError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.en);
  }
}

const mb = (n: number) => (n / MiB >= 10 ? Math.round(n / MiB).toString() : (Math.round((n / MiB) * 10) / 10).toString());

export const refusals = {
  notXlsx: (): Refusal => ({ reason: 'notXlsx', zh: '文件不是有效的 Excel（.xlsx）文件', en: 'The file is not a valid Excel (.xlsx) file' }),
  fileTooLarge: (size: number, max: number): Refusal => ({ reason: 'fileTooLarge', zh: `文件过大（${mb(size)} MB，上限 ${mb(max)} MB）`, en: `The file is too large (${mb(size)} MB; at most ${mb(max)} MB)` }),
  tooManyEntries: (n: number, max: number): Refusal => ({ reason: 'tooManyEntries', zh: `文件内含 ${n} 个部件，超过上限 ${max} 个`, en: `The file holds ${n} parts; at most ${max} are accepted` }),
  entryTooLarge: (name: string, size: number, max: number): Refusal => ({
    reason: 'entryTooLarge',
    zh: `文件解压后过大：${name} 为 ${mb(size)} MB，上限 ${mb(max)} MB`,
    en: `The file is too large uncompressed: ${name} is ${mb(size)} MB (at most ${mb(max)} MB)`,
  }),
  totalTooLarge: (size: number, max: number): Refusal => ({ reason: 'totalTooLarge', zh: `文件解压后过大：共 ${mb(size)} MB，上限 ${mb(max)} MB`, en: `The file is too large uncompressed: ${mb(size)} MB in all (at most ${mb(max)} MB)` }),
  ratio: (name: string, ratio: number, max: number): Refusal => ({
    reason: 'ratio',
    zh: `文件压缩比异常（${name} 为 ${Math.round(ratio)}:1，上限 ${max}:1），疑似压缩炸弹，未读取`,
    en: `The file is compressed suspiciously well (${name}: ${Math.round(ratio)}:1, at most ${max}:1); it looks like a zip bomb and was not read`,
  }),
  sizeMismatch: (name: string): Refusal => ({ reason: 'sizeMismatch', zh: `文件已损坏或被篡改：${name} 的内容与其声明的大小不符`, en: `The file is damaged or forged: ${name} holds more data than it declares` }),
  unsupported: (name: string): Refusal => ({ reason: 'unsupported', zh: `文件含加密或不支持的压缩方式（${name}）`, en: `The file uses encryption or an unsupported compression (${name})` }),
  tooManyRows: (sheet: string, max: number): Refusal => ({ reason: 'tooManyRows', zh: `工作表「${sheet}」超过 ${max} 行`, en: `Sheet "${sheet}" has more than ${max} rows` }),
  tooManyColumns: (sheet: string, max: number): Refusal => ({ reason: 'tooManyColumns', zh: `工作表「${sheet}」超过 ${max} 列`, en: `Sheet "${sheet}" has more than ${max} columns` }),
  cellTooLong: (sheet: string, row: number, max: number): Refusal => ({ reason: 'cellTooLong', zh: `工作表「${sheet}」第${row}行有单元格超过 ${max} 个字符`, en: `Sheet "${sheet}", row ${row}: a cell has more than ${max} characters` }),
  timeout: (ms: number): Refusal => ({ reason: 'timeout', zh: `文件读取超时（${Math.ceil(ms / 1000)} 秒），请拆分后再导入`, en: `Reading the file took longer than ${Math.ceil(ms / 1000)} s; split it and import the parts` }),
  tooMuchMemory: (): Refusal => ({ reason: 'tooMuchMemory', zh: '文件读取所需内存过多，请拆分后再导入', en: 'Reading the file needs too much memory; split it and import the parts' }),
};

export const refuse = (r: Refusal): never => {
  throw new RefusalError(r);
};
