import { z } from 'zod';
import { action, idString, pageFields, pageOf } from '../catalogue-kit.js';
import { reportActions, reportFilter, reportFilterIds } from './reports.js';

/**
 * The printable report (issue 12): one self-contained HTML document (inline CSS, A4 print rules,
 * inline SVG charts) serves both the console's browser printing and the server's PDFs, which the
 * system Chromium makes when the server has one. Who may read a report may print it: the access
 * codes are those of `as.m.exam.getCUserReport`. Every action is audited.
 */

const READ = reportActions['as.m.exam.getCUserReport'];
const LIST = reportActions['as.m.exam.getCUserReportPageList'];

/** Most reports one zip may hold; a larger filter is refused with a clear message. */
export const REPORT_ZIP_MAX = 500;
/**
 * Most reports a zip downloaded at once may hold (issue 27 item 9); a larger filter is exported in
 * the background (queueReportPdfZip), with progress, and its zip downloaded when done.
 */
export const REPORT_ZIP_INLINE_MAX = 20;

export const reportExportStates = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const reportExportRow = z.object({
  exportid: z.string(),
  state: z.enum(reportExportStates),
  count: z.int(),
  printed: z.int(),
  /** 0–100. */
  progress: z.int(),
  filename: z.string(),
  error: z.string().nullable(),
  createdat: z.string(),
  finishedat: z.string().nullable(),
  /** Until when the finished zip may be downloaded. */
  expiresat: z.string().nullable(),
});
export type ReportExportRow = z.infer<typeof reportExportRow>;

export const reportDocumentActions = {
  'as.m.exam.getReportDocument': action({
    access: READ.access,
    kind: 'json',
    op: 'read',
    summary:
      'One report in scope as a printable A4 HTML document in the caller’s language (institution, person, indicators, answers, trend, comments); pdf tells whether this server can make PDFs. Audited.',
    input: z.strictObject({ reportid: idString }),
    output: z.object({ html: z.string(), pdf: z.boolean() }),
    ids: { reportid: 'report' },
  }),
  'as.m.exam.exportReportPdf': action({
    access: READ.access,
    kind: 'download',
    op: 'export',
    summary:
      'One report in scope as an A4 PDF (the printable document, made by the system Chromium). Refused (conflict) when the server has no Chromium. Audited.',
    input: z.strictObject({ reportid: idString }),
    output: z.unknown(),
    ids: { reportid: 'report' },
  }),
  'as.m.exam.exportReportPdfZip': action({
    access: LIST.access,
    kind: 'download',
    op: 'export',
    summary: `A zip of the A4 PDFs of the reports the list filter finds, streamed as they are printed (at most ${REPORT_ZIP_INLINE_MAX}; more go through queueReportPdfZip; none is refused). Printing stops when the client goes away. One export at a time per institution and a few per server process: otherwise refused as busy (rateLimited, HTTP 429). Refused (conflict) when the server has no Chromium. Audited.`,
    input: reportFilter,
    output: z.unknown(),
    ids: { ...reportFilterIds },
  }),
  'as.m.exam.queueReportPdfZip': action({
    access: LIST.access,
    kind: 'json',
    op: 'write',
    summary: `The same zip made by a background job, for up to ${REPORT_ZIP_MAX} reports (more, or none, is refused); its progress is in getReportPdfZipPage and the zip is downloaded with downloadReportPdfZip. Busy (rateLimited, HTTP 429) while the institution has an export running. Audited with the reports it covers.`,
    input: reportFilter,
    output: z.object({ exportid: z.string(), count: z.int() }),
    ids: { ...reportFilterIds },
  }),
  'as.m.exam.getReportPdfZipPage': action({
    access: LIST.access,
    kind: 'json',
    op: 'list',
    summary: 'The background PDF exports of the accounts in the caller’s scope, newest first, with their state and progress.',
    input: z.strictObject({ ...pageFields }),
    output: pageOf(reportExportRow),
  }),
  'as.m.exam.downloadReportPdfZip': action({
    access: LIST.access,
    kind: 'download',
    op: 'export',
    summary: 'The zip of a finished background export in the caller’s scope, until it expires. Audited.',
    input: z.strictObject({ exportid: idString }),
    output: z.unknown(),
    ids: { exportid: 'reportexport' },
  }),
  'as.m.exam.cancelReportPdfZip': action({
    access: LIST.access,
    kind: 'json',
    op: 'write',
    summary: 'Cancels a queued or running background export in the caller’s scope: printing stops before the next PDF. Audited.',
    input: z.strictObject({ exportid: idString }),
    output: z.null(),
    ids: { exportid: 'reportexport' },
  }),
};
