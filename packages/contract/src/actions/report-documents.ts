import { z } from 'zod';
import { action, idString } from '../catalogue-kit.js';
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
    summary: `A zip of the A4 PDFs of the reports the list filter finds (at most ${REPORT_ZIP_MAX}; more, or none, is refused). Refused (conflict) when the server has no Chromium. Audited.`,
    input: reportFilter,
    output: z.unknown(),
    ids: { ...reportFilterIds },
  }),
};
