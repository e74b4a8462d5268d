import { once } from 'node:events';
import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import yazl from 'yazl';
import type { Lang } from '@xinli/contract';
import type { Config } from '../../../config.js';
import type { Db, DbOrTx } from '../../../db/database.js';
import { createCtx, type Caller, type Ctx } from '../../../http/context.js';
import { AppError, type Message } from '../../../http/errors.js';
import { newId } from '../../../kit/index.js';
import { enqueue, JobFailure, processLimit, type JobDefinition } from '../../../kit/jobs/index.js';
import { scopeWhere } from '../../auth/index.js';
import { writeAudit } from '../../audit/index.js';
import { newKey, storageOf } from '../../files/index.js';
import { documentModel } from './data.js';
import { openPrinter, type PdfDocument } from '../../../kit/pdf.js';
import { chinaTime } from '../../../kit/print.js';
import { renderDocument } from './layout.js';
import { pdfFooter } from './template.js';
import type { DocumentModel } from './model.js';
import { reportExport, type ReportExportRecord } from './tables.js';

/**
 * Long PDF exports (issue 27 item 9): the slots that bound them, the printing loop that stops when
 * told to, and the background job for large batches. Printing is bounded twice: per server process
 * (its own Chromium: an in-memory limit) and per account across every process (a claimed row of
 * report_export under a partial unique index).
 */

export const REPORT_ZIP_JOB = 'report-pdf-zip';
/** An inline export's lease, renewed after every PDF: a process that died frees its slot after this. */
const INLINE_LEASE_MS = 2 * 60_000;

const BUSY_ACCOUNT: Message = {
  zh: '本机构正在导出 PDF 报告，请等当前导出完成（或取消后台导出）后再试',
  en: 'This institution is already exporting PDF reports; please try again when that export is done (or cancel the background export)',
};
const BUSY_SERVER: Message = {
  zh: '服务器正忙于生成其他 PDF 报告，请稍后再试',
  en: 'The server is busy printing other PDF reports; please try again in a moment',
};

/** "Busy, try again": HTTP 429 with the envelope's rateLimited code. */
const busy = (msg: Message): never => {
  throw new AppError('rateLimited', msg, 429);
};

/** Who asked: a staff user's id, else the account's code. */
export const requester = (ctx: Ctx) => ctx.me.userid ?? ctx.me.musercode;

/** This process's PDF printing places; answers a release, or refuses as busy. */
export function processSlot(config: Config): () => void {
  return processLimit('report-pdf', config.pdfExports.perProcess).tryAcquire() ?? busy(BUSY_SERVER);
}

export interface NewExport {
  kind: 'inline' | 'job';
  reportids: string[];
  scope: string[];
  filename: string;
}

/**
 * Claims one of the account's export slots with a new export row, or refuses as busy. The first
 * free slot number wins; the partial unique index decides between parallel claims (the losers'
 * inserts do nothing). Inline rows whose lease ran out (their process died) are ended first.
 */
export async function claimExport(ctx: Ctx, db: DbOrTx, e: NewExport): Promise<ReportExportRecord> {
  const now = ctx.now();
  await db
    .update(reportExport)
    .set({ state: 'failed', error: 'the server printing it stopped', finishedat: now })
    .where(and(eq(reportExport.musercode, ctx.me.musercode), eq(reportExport.kind, 'inline'), eq(reportExport.state, 'running'), lt(reportExport.lockeduntil, now)));
  const base = {
    musercode: ctx.me.musercode,
    createdby: requester(ctx),
    kind: e.kind,
    state: e.kind === 'inline' ? ('running' as const) : ('queued' as const),
    lang: ctx.lang,
    reportids: e.reportids,
    scope: e.scope,
    filename: e.filename,
    lockeduntil: e.kind === 'inline' ? new Date(now.getTime() + INLINE_LEASE_MS) : null,
    createdat: now,
  };
  for (let slot = 0; slot < ctx.config.pdfExports.perInstitution; slot++) {
    const [row] = await db
      .insert(reportExport)
      .values({ ...base, exportid: newId('RX'), slot })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
  }
  return busy(BUSY_ACCOUNT);
}

/** An inline export's row ends with its request: its slot is free at once. */
export async function endInline(db: Db, exportid: string): Promise<void> {
  await db.delete(reportExport).where(eq(reportExport.exportid, exportid));
}

/** A file name part without path separators or characters archive tools refuse. */
const safeName = (s: string) => s.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim() || '_';

export const pdfName = (m: DocumentModel) =>
  `${safeName(m.person.realname)}-${safeName(m.report.formname)}-${chinaTime(m.report.createdat, false)}-${m.report.reportid}.pdf`;

export const pdfOf = (m: DocumentModel): PdfDocument => ({ html: renderDocument(m, { pageNumbers: 'none' }), footerTemplate: pdfFooter(m) });

type Printer = Awaited<ReturnType<typeof openPrinter>>;

/**
 * Prints the reports into the zip one after another, checking `signal` before each and passing it
 * to the printing of each (an abort closes the page being printed). `after(n)` runs after the n-th
 * PDF (progress, leases, a cancel check that aborts). Answers how many were printed.
 */
export async function printInto(
  ctx: Ctx,
  zip: yazl.ZipFile,
  printer: Printer,
  reportids: string[],
  signal: AbortSignal,
  after: (printed: number) => Promise<void>,
): Promise<number> {
  const mtime = ctx.now();
  let printed = 0;
  for (const reportid of reportids) {
    signal.throwIfAborted();
    const m = await documentModel(ctx, reportid);
    zip.addBuffer(await printer.pdf(pdfOf(m), signal), pdfName(m), { mtime, compress: false });
    await after(++printed);
  }
  return printed;
}

/** Waits until a stream may take more, or the signal aborts. */
export const drained = (stream: NodeJS.EventEmitter, signal: AbortSignal) => once(stream, 'drain', { signal });

/** Renews an inline export's lease (after each PDF). */
export async function renewInline(ctx: Ctx, exportid: string): Promise<void> {
  await ctx.db
    .update(reportExport)
    .set({ lockeduntil: new Date(ctx.now().getTime() + INLINE_LEASE_MS) })
    .where(eq(reportExport.exportid, exportid));
}

/** Queues a background export in one transaction: its row (the slot) and its job. */
export async function queueExport(ctx: Ctx, e: Omit<NewExport, 'kind'>): Promise<ReportExportRecord> {
  return ctx.db.transaction(async (tx) => {
    const row = await claimExport(ctx, tx, { ...e, kind: 'job' });
    const { id } = await enqueue(tx, REPORT_ZIP_JOB, { exportid: row.exportid }, { now: ctx.now(), maxAttempts: 2 });
    await tx.update(reportExport).set({ jobid: id }).where(eq(reportExport.exportid, row.exportid));
    return { ...row, jobid: id };
  });
}

/** Cancels a queued or running background export of the caller; false when it is not one. */
export async function cancelExport(ctx: Ctx, exportid: string): Promise<boolean> {
  const done = await ctx.db
    .update(reportExport)
    .set({ state: 'cancelled', finishedat: ctx.now() })
    .where(and(mine(ctx), eq(reportExport.exportid, exportid), eq(reportExport.kind, 'job'), inArray(reportExport.state, ['queued', 'running'])))
    .returning({ exportid: reportExport.exportid });
  return done.length > 0;
}

/**
 * The background exports a caller sees, downloads and cancels: those of the accounts in its scope,
 * as every other object. It grants nothing new: whoever may list an account's exports may run the
 * same export (the same codes, the same scope).
 */
export const mine = (ctx: Ctx) => and(scopeWhere(reportExport.musercode, ctx.me), eq(reportExport.kind, 'job'));

/**
 * The job prints as a caller scoped to the institutions of the reports it was given: those
 * reports were found in the requester's scope (and audited) when it was queued.
 */
function jobCtx(db: Db, config: Config, now: () => Date, row: ReportExportRecord): Ctx {
  const caller: Caller = {
    tokenhash: '',
    musercode: row.musercode,
    userid: null,
    actor: null,
    actoruserid: null,
    musertype: '',
    issuper: false,
    codes: new Set(),
    roles: [],
    scope: row.scope,
  };
  return createCtx({ db, config, now, lang: row.lang as Lang, ip: '', requestId: `job:${row.exportid}`, caller, writeAudit });
}

const stillRunning = (exportid: string) => and(eq(reportExport.exportid, exportid), eq(reportExport.state, 'running'));

/**
 * The background export: prints the row's reports into a zip under this process's PDF limit
 * (waiting for a place), records progress after each PDF and stops before the next one once the
 * export is cancelled or the server stops. The finished zip is stored and kept for keepHours.
 */
export const reportZipJob: JobDefinition<{ exportid: string }> = {
  lane: 'long',
  async run({ exportid }, job) {
    const [row] = await job.db.select().from(reportExport).where(eq(reportExport.exportid, exportid));
    if (!row || (row.state !== 'queued' && row.state !== 'running')) return;
    await job.db.update(reportExport).set({ state: 'running', printed: 0 }).where(eq(reportExport.exportid, exportid));
    const release = await processLimit('report-pdf', job.config.pdfExports.perProcess).acquire(job.signal);
    const stop = new AbortController();
    const signal = AbortSignal.any([job.signal, stop.signal]);
    const ctx = jobCtx(job.db, job.config, job.now, row);
    let printer: Printer | null = null;
    try {
      printer = await openPrinter(job.config.chromiumPath);
      const zip = new yazl.ZipFile();
      const chunks: Buffer[] = [];
      zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
      const ended = once(zip.outputStream, 'end');
      await printInto(ctx, zip, printer, row.reportids, signal, async (printed) => {
        const [now] = await job.db
          .update(reportExport)
          .set({ printed })
          .where(stillRunning(exportid))
          .returning({ exportid: reportExport.exportid });
        if (!now) stop.abort(new Error('cancelled'));
        else await job.progress((printed * 100) / row.reportids.length);
      });
      zip.end();
      await ended;
      const key = newKey('zip');
      await storageOf(job.config).put(key, Buffer.concat(chunks), 'application/zip');
      const at = job.now();
      const [done] = await job.db
        .update(reportExport)
        .set({ state: 'done', filekey: key, finishedat: at, expiresat: new Date(at.getTime() + job.config.pdfExports.keepHours * 3_600_000), error: null })
        .where(stillRunning(exportid))
        .returning({ exportid: reportExport.exportid });
      if (!done) await storageOf(job.config).delete(key); // cancelled at the last moment
      await removeExpired(job.db, job.config, at);
    } catch (err) {
      if (stop.signal.aborted) return; // cancelled: the row says so already
      // The server is stopping: the job is put back and starts again; so does its row.
      if (job.signal.aborted) await job.db.update(reportExport).set({ state: 'queued' }).where(stillRunning(exportid));
      throw err instanceof JobFailure || job.signal.aborted ? err : new JobFailure('printing the PDFs failed');
    } finally {
      await printer?.close();
      release();
    }
  },
  async failed({ exportid }, ctx, error) {
    await ctx.db
      .update(reportExport)
      .set({ state: 'failed', error: error.slice(0, 500), finishedat: ctx.now() })
      .where(and(eq(reportExport.exportid, exportid), inArray(reportExport.state, ['queued', 'running'])));
  },
};

/** Finished zips past their time are deleted (they hold names and results): their rows stay, without a file. */
async function removeExpired(db: Db, config: Config, now: Date): Promise<void> {
  const old = await db
    .select({ exportid: reportExport.exportid, filekey: reportExport.filekey })
    .from(reportExport)
    .where(and(eq(reportExport.state, 'done'), lt(reportExport.expiresat, now), isNotNull(reportExport.filekey)));
  for (const r of old) {
    await storageOf(config).delete(r.filekey!);
    await db.update(reportExport).set({ filekey: null }).where(eq(reportExport.exportid, r.exportid));
  }
}
