import { PassThrough } from 'node:stream';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import yazl from 'yazl';
import { REPORT_ZIP_INLINE_MAX, REPORT_ZIP_MAX, type ActionParsedInput, type ReportExportRow } from '@xinli/contract';
import type { Ctx } from '../../../http/context.js';
import type { HandlerMap } from '../../../http/handlers.js';
import { conflict, fail, invalid, notFound, type Message } from '../../../http/errors.js';
import { iso, paged, todayIn } from '../../../kit/index.js';
import { jobsById } from '../../../kit/jobs/index.js';
import { storageOf } from '../../files/index.js';
import { reportFilterWhere } from '../filter.js';
import { documentModel } from './data.js';
import { cancelExport, claimExport, drained, endInline, mine, pdfName, pdfOf, printInto, processSlot, queueExport, renewInline } from './export.js';
import { canMakePdf, NO_CHROMIUM, openPrinter } from '../../../kit/pdf.js';
import { renderDocument } from './layout.js';
import { reportExport, type ReportExportRecord } from './tables.js';
import { report } from '../tables.js';

/**
 * The printable report (issue 12): the HTML document for the console's print preview, one PDF,
 * or a zip of the PDFs of the filtered report list. Names are shown unmasked (an official
 * document for staff); every read and export is audited with the reports it covered.
 */

type Filter = ActionParsedInput<'as.m.exam.exportReportPdfZip'>;

/** Checked after the report or filter, so another institution's object is "not found" on any server. */
// A conflict (the server's state refuses the request), not an internal error: nothing failed.
function assertPdf(ctx: Ctx) {
  if (!canMakePdf(ctx.config.chromiumPath)) fail('conflict', NO_CHROMIUM);
}

const TOO_MANY = (total: number): Message => ({
  zh: `符合条件的报告有 ${total} 份，一次最多导出 ${REPORT_ZIP_MAX} 份，请缩小筛选范围（如日期或机构）`,
  en: `${total} reports match; at most ${REPORT_ZIP_MAX} can be exported at once. Narrow the filter (dates or institution).`,
});
const USE_BACKGROUND = (total: number): Message => ({
  zh: `符合条件的报告有 ${total} 份，超过 ${REPORT_ZIP_INLINE_MAX} 份请使用“后台导出”，完成后在导出列表中下载`,
  en: `${total} reports match; more than ${REPORT_ZIP_INLINE_MAX} are exported in the background: use “Export in background” and download the zip when it is done`,
});

/**
 * The reports the list filter finds, newest first as the list shows them, with their
 * institutions; refused when none or above `max` (with the message `tooMany` gives).
 */
async function filteredReports(ctx: Ctx, filter: Filter, max: number, tooMany: (total: number) => Message) {
  const where = await reportFilterWhere(ctx, filter);
  const [{ total }] = (await ctx.db.select({ total: count() }).from(report).where(where)) as [{ total: number }];
  if (Number(total) === 0) invalid({ zh: '没有符合筛选条件的报告', en: 'No report matches the filter' });
  if (Number(total) > max) invalid(tooMany(Number(total)));
  const rows = await ctx.db
    .select({ reportid: report.assessid, musercode: report.musercode })
    .from(report)
    .where(where)
    .orderBy(desc(report.createdat), asc(report.assessid))
    .limit(max);
  return { ids: rows.map((r) => r.reportid), scope: [...new Set(rows.map((r) => r.musercode))].sort() };
}

const zipName = (ctx: Ctx) => `${ctx.lang === 'zh-CN' ? '测评报告' : 'reports'}-${todayIn(ctx.now())}.zip`;

function exportRow(r: ReportExportRecord, progress: number): ReportExportRow {
  return {
    exportid: r.exportid,
    state: r.state,
    count: r.reportids.length,
    printed: r.printed,
    progress: r.state === 'done' ? 100 : r.state === 'queued' ? 0 : Math.round(progress),
    filename: r.filename,
    error: r.error,
    createdat: iso(r.createdat),
    finishedat: r.finishedat ? iso(r.finishedat) : null,
    expiresat: r.expiresat ? iso(r.expiresat) : null,
  };
}

async function myExport(ctx: Ctx, exportid: string): Promise<ReportExportRecord> {
  const [row] = await ctx.db.select().from(reportExport).where(and(mine(ctx), eq(reportExport.exportid, exportid)));
  return row ?? notFound({ zh: '导出不存在', en: 'No such export' });
}

export const reportDocumentHandlers = {
  'as.m.exam.getReportDocument': async ({ reportid }, ctx) => {
    const m = await documentModel(ctx, reportid);
    await ctx.audit({
      result: 'ok',
      detail: { reportid, cusercode: m.report.cusercode, target: m.report.musercode },
    });
    return { html: renderDocument(m), pdf: canMakePdf(ctx.config.chromiumPath) };
  },

  'as.m.exam.exportReportPdf': async ({ reportid }, ctx) => {
    const m = await documentModel(ctx, reportid);
    assertPdf(ctx);
    const printer = await openPrinter(ctx.config.chromiumPath);
    let body: Buffer;
    try {
      body = await printer.pdf(pdfOf(m));
    } finally {
      await printer.close();
    }
    await ctx.audit({
      result: 'ok',
      detail: { reportid, cusercode: m.report.cusercode, target: m.report.musercode },
    });
    return { filename: pdfName(m), contentType: 'application/pdf', body };
  },

  /**
   * Streams the zip: the answer starts once the filter is checked and the browser is up, and each
   * PDF is printed and added as the client reads (waiting while the socket is full), so at most a
   * few PDFs are held in memory. An empty filter result is refused rather than answered with an
   * empty zip, so staff are told why nothing came. Up to REPORT_ZIP_INLINE_MAX reports (more go to
   * the background job). It takes one of this process's printing places and one of the account's
   * export slots, or is refused as busy; both are given back when it ends. When the client goes
   * away (the request's signal, or the answer stream destroyed) printing stops before the next PDF
   * and the PDF in flight is abandoned.
   */
  'as.m.exam.exportReportPdfZip': async (filter, ctx) => {
    const { ids, scope } = await filteredReports(ctx, filter, REPORT_ZIP_INLINE_MAX, USE_BACKGROUND);
    assertPdf(ctx);
    const release = processSlot(ctx.config);
    let row: ReportExportRecord | null = null;
    let printer: Awaited<ReturnType<typeof openPrinter>> | null = null;
    const zip = new yazl.ZipFile();
    const body = new PassThrough();
    const gone = new AbortController();
    body.once('close', () => !body.writableFinished && gone.abort(new Error('the client went away')));
    const signal = AbortSignal.any([ctx.signal, gone.signal]);
    const end = async () => {
      await printer?.close();
      release();
      if (row) await endInline(ctx.db, row.exportid);
    };
    try {
      row = await claimExport(ctx, ctx.db, { kind: 'inline', reportids: ids, scope, filename: zipName(ctx) });
      printer = await openPrinter(ctx.config.chromiumPath);
    } catch (err) {
      await end();
      throw err;
    }
    zip.outputStream.pipe(body);
    const exportid = row.exportid;
    const fill = async () => {
      try {
        await printInto(ctx, zip, printer!, ids, signal, async () => {
          await renewInline(ctx, exportid);
          if (body.writableNeedDrain) await drained(body, signal);
        });
        zip.end();
      } finally {
        await end();
      }
    };
    fill().catch((err: Error) => body.destroy(signal.aborted ? undefined : err));
    await ctx.audit({ result: 'ok', detail: { filter, count: ids.length, reportids: ids } });
    return { filename: zipName(ctx), contentType: 'application/zip', body };
  },

  'as.m.exam.queueReportPdfZip': async (filter, ctx) => {
    const { ids, scope } = await filteredReports(ctx, filter, REPORT_ZIP_MAX, TOO_MANY);
    assertPdf(ctx);
    const row = await queueExport(ctx, { reportids: ids, scope, filename: zipName(ctx) });
    await ctx.audit({
      result: 'ok',
      detail: { exportid: row.exportid, filter, count: ids.length, reportids: ids },
    });
    return { exportid: row.exportid, count: ids.length };
  },

  'as.m.exam.getReportPdfZipPage': async ({ page, pageSize }, ctx) => {
    const query = ctx.db.select().from(reportExport).where(mine(ctx)).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(reportExport.createdat), desc(reportExport.exportid)], { page, pageSize });
    const jobs = await jobsById(
      ctx.db,
      rows.flatMap((r) => (r.state === 'running' && r.jobid ? [r.jobid] : [])),
    );
    return { total, rows: rows.map((r) => exportRow(r, (r.jobid && jobs.get(r.jobid)?.progress) || 0)) };
  },

  'as.m.exam.downloadReportPdfZip': async ({ exportid }, ctx) => {
    const row = await myExport(ctx, exportid);
    if (row.state !== 'done') conflict({ zh: '该导出尚未完成', en: 'This export is not done' });
    const file = row.filekey && (!row.expiresat || row.expiresat > ctx.now()) ? await storageOf(ctx.config).get(row.filekey) : null;
    if (!file) conflict({ zh: '该导出已过期，请重新导出', en: 'This export has expired; please export again' });
    await ctx.audit({ result: 'ok', detail: { exportid, count: row.reportids.length } });
    return { filename: row.filename, contentType: 'application/zip', body: file!.body };
  },

  'as.m.exam.cancelReportPdfZip': async ({ exportid }, ctx) => {
    const row = await myExport(ctx, exportid);
    if (!(await cancelExport(ctx, row.exportid))) conflict({ zh: '只有排队中或进行中的导出可以取消', en: 'Only a queued or running export can be cancelled' });
    await ctx.audit({ result: 'ok', detail: { exportid } });
    return null;
  },
} satisfies HandlerMap;
