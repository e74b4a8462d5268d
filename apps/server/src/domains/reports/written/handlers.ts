import type { HandlerMap } from '../../../http/handlers.js';
import { fail } from '../../../http/errors.js';

const pending = (): never => fail('internal', { zh: '尚未实现', en: 'Not implemented yet' });

/** The AI individual report (menu 001802). */
export const writtenReportHandlers = {
  'as.m.report.getAsai1UserReportPageList': async () => pending(),
  'as.m.report.getAsai1Writers': async () => pending(),
  'as.m.report.generateAsai1UserReport': async () => pending(),
  'as.m.report.getAsai1BatchProgress': async () => pending(),
  'as.m.report.getAsai1UserReport': async () => pending(),
  'as.m.report.getAsai1UserReportHistory': async () => pending(),
  'as.m.report.updateAsai1UserReport': async () => pending(),
  'as.m.report.approveAsai1UserReport': async () => pending(),
  'as.m.report.withdrawAsai1UserReport': async () => pending(),
  'as.m.report.retryAsai1UserReport': async () => pending(),
} satisfies HandlerMap;
