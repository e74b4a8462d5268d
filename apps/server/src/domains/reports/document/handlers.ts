import type { HandlerMap } from '../../../http/handlers.js';
import { fail } from '../../../http/errors.js';

const notYet = () => fail('internal', { zh: '尚未实现', en: 'Not implemented yet' });

export const reportDocumentHandlers = {
  'as.m.exam.getReportDocument': async () => notYet(),
  'as.m.exam.exportReportPdf': async () => notYet(),
  'as.m.exam.exportReportPdfZip': async () => notYet(),
} satisfies HandlerMap;
