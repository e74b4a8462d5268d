import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { asc, count, desc } from 'drizzle-orm';
import yazl from 'yazl';
import { REPORT_ZIP_MAX, type ActionParsedInput } from '@xinli/contract';
import type { Ctx } from '../../../http/context.js';
import type { HandlerMap } from '../../../http/handlers.js';
import { fail, invalid } from '../../../http/errors.js';
import { todayIn } from '../../../kit/index.js';
import { assessment } from '../../assessments/tables.js';
import { reportFilterWhere } from '../filter.js';
import { documentModel } from './data.js';
import { canMakePdf, NO_CHROMIUM, openPrinter } from './pdf.js';
import { chinaTime, pdfFooter, renderReportDocument } from './template.js';
import type { DocumentModel } from './model.js';

/**
 * The printable report (issue 12): the HTML document for the console's print preview, one PDF,
 * or a zip of the PDFs of the filtered report list. Names are shown unmasked (an official
 * document for staff); every read and export is audited with the reports it covered.
 */

type Filter = ActionParsedInput<'as.m.exam.exportReportPdfZip'>;

/** A file name part without path separators or characters archive tools refuse. */
const safeName = (s: string) => s.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim() || '_';

const pdfName = (m: DocumentModel) =>
  `${safeName(m.person.realname)}-${safeName(m.report.formname)}-${chinaTime(m.report.createdat, false)}-${m.report.reportid}.pdf`;

/** Checked after the report or filter, so another institution's object is "not found" on any server. */
// A conflict (the server's state refuses the request), not an internal error: nothing failed.
function assertPdf(ctx: Ctx) {
  if (!canMakePdf(ctx.config.chromiumPath)) fail('conflict', NO_CHROMIUM);
}

const pdfOf = (m: DocumentModel) => ({ html: renderReportDocument(m, { pageNumbers: 'none' }), footerTemplate: pdfFooter(m) });

/** The ids of the reports the list filter finds, newest first as the list shows them; refused above the cap or when none. */
async function filteredReportIds(ctx: Ctx, filter: Filter): Promise<string[]> {
  const where = await reportFilterWhere(ctx, filter);
  const [{ total }] = (await ctx.db.select({ total: count() }).from(assessment).where(where)) as [{ total: number }];
  if (Number(total) === 0) invalid({ zh: '没有符合筛选条件的报告', en: 'No report matches the filter' });
  if (Number(total) > REPORT_ZIP_MAX) {
    invalid({
      zh: `符合条件的报告有 ${total} 份，一次最多导出 ${REPORT_ZIP_MAX} 份，请缩小筛选范围（如日期或机构）`,
      en: `${total} reports match; at most ${REPORT_ZIP_MAX} can be exported at once. Narrow the filter (dates or institution).`,
    });
  }
  const rows = await ctx.db
    .select({ reportid: assessment.assessid })
    .from(assessment)
    .where(where)
    .orderBy(desc(assessment.createdat), asc(assessment.assessid))
    .limit(REPORT_ZIP_MAX);
  return rows.map((r) => r.reportid);
}

export const reportDocumentHandlers = {
  'as.m.exam.getReportDocument': async ({ reportid }, ctx) => {
    const m = await documentModel(ctx, reportid);
    await ctx.audit({
      action: 'as.m.exam.getReportDocument',
      result: 'ok',
      detail: { reportid, cusercode: m.report.cusercode, target: m.report.musercode },
    });
    return { html: renderReportDocument(m), pdf: canMakePdf(ctx.config.chromiumPath) };
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
      action: 'as.m.exam.exportReportPdf',
      result: 'ok',
      detail: { reportid, cusercode: m.report.cusercode, target: m.report.musercode },
    });
    return { filename: pdfName(m), contentType: 'application/pdf', body };
  },

  /**
   * Streams the zip: the answer starts once the filter is checked and the browser is up, and each
   * PDF is printed and added as the client reads (waiting while the socket is full), so at most a
   * few PDFs are held in memory. An empty filter result is refused rather than answered with an
   * empty zip, so staff are told why nothing came.
   */
  'as.m.exam.exportReportPdfZip': async (filter, ctx) => {
    const ids = await filteredReportIds(ctx, filter);
    assertPdf(ctx);
    const printer = await openPrinter(ctx.config.chromiumPath);
    const zip = new yazl.ZipFile();
    const body = new PassThrough();
    zip.outputStream.pipe(body);
    const now = ctx.now();
    const fill = async () => {
      try {
        for (const reportid of ids) {
          const m = await documentModel(ctx, reportid);
          zip.addBuffer(await printer.pdf(pdfOf(m)), pdfName(m), { mtime: now, compress: false });
          if (body.writableNeedDrain) await once(body, 'drain');
        }
        zip.end();
      } finally {
        await printer.close();
      }
    };
    fill().catch((err: Error) => body.destroy(err));
    await ctx.audit({ action: 'as.m.exam.exportReportPdfZip', result: 'ok', detail: { filter, count: ids.length, reportids: ids } });
    return { filename: `${ctx.lang === 'zh-CN' ? '测评报告' : 'reports'}-${todayIn(now)}.zip`, contentType: 'application/zip', body };
  },
} satisfies HandlerMap;
