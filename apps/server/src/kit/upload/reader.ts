/**
 * The guarded spreadsheet reader: the one way any domain reads an uploaded .xlsx (issue 8 §3).
 *
 *   const { sheets } = await readSheetRows(bytes, { limits: { maxRows: 2000 } });   // small files
 *   for await (const { sheet, rows } of streamSheetRows(bytes)) { ... }              // big files
 *
 * The file is parsed in a worker thread (parse.ts), so the server keeps answering meanwhile;
 * at most MAX_WORKERS parse at once (others wait their turn). The zip's declared sizes and entry
 * count are judged before anything is inflated, inflated bytes are counted, rows, columns and
 * cell lengths are capped; a breach, a timeout or the worker running out of heap ends the worker
 * and throws UploadRefused: an AppError with code badImportFile and a message in both languages.
 */
import { Worker } from 'node:worker_threads';
import { AppError } from '../../http/errors.js';
import { DEFAULT_LIMITS, refusals, type Refusal, type RefusalReason, type UploadLimits } from './limits.js';
import type { CellValue, ParseEvent, SheetPick, SheetRow, WorkerInput, WorkerMessage } from './parse.js';

export { DEFAULT_LIMITS, type UploadLimits, type RefusalReason } from './limits.js';
export type { CellValue, SheetPick, SheetRow } from './parse.js';

export interface ReadOptions {
  /** Tighter (or looser) limits than DEFAULT_LIMITS. */
  limits?: Partial<UploadLimits>;
  /** Which sheets to read; all of them by default. */
  sheets?: SheetPick;
  /** Rows per batch of streamSheetRows (default 1000). */
  batchRows?: number;
}

export interface RowBatch {
  sheet: string;
  rows: SheetRow[];
}

export interface SheetRows {
  name: string;
  /** rows[i] holds row i + 1; a row with nothing in it is []. */
  rows: CellValue[][];
}

/** A file refused by the reader: badImportFile, with why. */
export class UploadRefused extends AppError {
  constructor(readonly reason: RefusalReason, msg: { zh: string; en: string }) {
    super('badImportFile', msg);
  }
  static of(r: Refusal): UploadRefused {
    return new UploadRefused(r.reason, { zh: r.zh, en: r.en });
  }
}

/** Parses running at once; the machine has few cores and each parse keeps one busy. */
export const MAX_WORKERS = 2;
let running = 0;
const waiting: (() => void)[] = [];
/** Parses running and waiting now (for tests and monitoring). */
export const uploadWorkers = () => ({ running, waiting: waiting.length });
async function acquire(): Promise<() => void> {
  if (running >= MAX_WORKERS) await new Promise<void>((r) => waiting.push(r));
  else running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}

/**
 * How to start the worker: worker.js beside this file when compiled; from TypeScript sources
 * (tests, tsx) worker.ts, loaded through a small bootstrap that registers tsx's loader inside
 * the worker first (on Node 20 a worker does not take `--import tsx` from execArgv).
 */
function workerEntry(): { entry: string | URL; eval: boolean } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { entry: new URL('./worker.js', here), eval: false };
  const tsx = import.meta.resolve('tsx/esm/api');
  const worker = new URL('./worker.ts', here).href;
  return { entry: `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(worker)}); });`, eval: true };
}

/** The parse events of a file, from a worker; ending the iteration early ends the worker. */
async function* events(bytes: Uint8Array, opts: ReadOptions): AsyncGenerator<ParseEvent> {
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  if (bytes.length > limits.maxFileBytes) throw UploadRefused.of(refusals.fileTooLarge(bytes.length, limits.maxFileBytes));
  const { entry, eval: evalEntry } = workerEntry();
  const release = await acquire();
  // The worker gets a copy of the file moved to it (transferred), not cloned: one copy, not two,
  // and the caller's bytes stay as they are.
  const copy = new Uint8Array(bytes);
  const input: WorkerInput = { bytes: copy, limits, pick: opts.sheets ?? 'all', batchRows: opts.batchRows ?? 1000, credit: 2 };
  let worker: Worker;
  try {
    worker = new Worker(entry, {
      eval: evalEntry,
      workerData: input,
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 8 },
    });
  } catch (e) {
    release();
    throw e;
  }
  const inbox: WorkerMessage[] = [];
  let problem: Error | null = null;
  let exited = false;
  let notify: (() => void) | null = null;
  const poke = () => {
    notify?.();
    notify = null;
  };
  worker.on('message', (m: WorkerMessage) => {
    inbox.push(m);
    poke();
  });
  worker.on('error', (e: Error & { code?: string }) => {
    problem ??= e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? UploadRefused.of(refusals.tooMuchMemory()) : e;
    poke();
  });
  worker.on('exit', () => {
    exited = true;
    poke();
  });
  // The time limit counts time spent waiting on the worker, not time the consumer spends on rows.
  let budget = limits.timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  let since = 0;
  const startClock = () => {
    since = performance.now();
    timer = setTimeout(() => {
      problem ??= UploadRefused.of(refusals.timeout(limits.timeoutMs));
      void worker.terminate();
      poke();
    }, Math.max(budget, 0));
  };
  const stopClock = () => {
    clearTimeout(timer);
    budget -= performance.now() - since;
  };
  try {
    startClock();
    for (;;) {
      while (!inbox.length && !problem && !exited) await new Promise<void>((r) => (notify = r));
      if (problem) throw problem;
      const m = inbox.shift();
      if (!m) throw new Error('the upload worker ended without an answer');
      if (m.kind === 'done') return;
      if (m.kind === 'refused') throw UploadRefused.of(m.refusal);
      if (m.kind === 'failed') throw new Error(`upload worker failed: ${m.message}`);
      if (m.kind === 'rows') worker.postMessage('more');
      stopClock();
      yield m;
      startClock();
    }
  } finally {
    clearTimeout(timer);
    await worker.terminate();
    release();
  }
}

/** The rows of the chosen sheets, in batches; memory stays flat however long the sheet. */
export async function* streamSheetRows(bytes: Uint8Array, opts: ReadOptions = {}): AsyncGenerator<RowBatch> {
  let sheet = '';
  for await (const ev of events(bytes, opts)) {
    if (ev.kind === 'sheet') sheet = ev.name;
    else yield { sheet, rows: ev.rows };
  }
}

/** The chosen sheets whole, for small files (a scale's questions); big ones use streamSheetRows. */
export async function readSheetRows(bytes: Uint8Array, opts: ReadOptions = {}): Promise<{ sheets: SheetRows[] }> {
  const sheets: SheetRows[] = [];
  for await (const ev of events(bytes, opts)) {
    if (ev.kind === 'sheet') sheets.push({ name: ev.name, rows: [] });
    else {
      const rows = sheets[sheets.length - 1]!.rows;
      for (const row of ev.rows) {
        while (rows.length < row.r - 1) rows.push([]);
        rows[row.r - 1] = row.cells;
      }
    }
  }
  return { sheets };
}
