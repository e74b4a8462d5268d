import type { HandlerMap } from '../../http/handlers.js';
import { fail } from '../../http/errors.js';
import { reportHandlers } from './reports.js';

const notYet = (): never => fail('internal', { zh: '尚未实现', en: 'Not implemented yet' });

/** Reading reports, their filters, comments, visibility, attempts and exports (SPEC §7 Exams/reports). */
export const reportsHandlers = {
  ...reportHandlers,
  'as.m.exam.getQuotaFilterConditions': async () => notYet(),
  'as.m.exam.getCUserStagesAssessCount': async () => notYet(),
  'as.m.exam.getReportMaxTime': async () => notYet(),
  'as.m.exam.getCUserExamDataPageList': async () => notYet(),
  'as.m.exam.getAnxiousDepressedReportPageList': async () => notYet(),
  'as.m.exam.getPHQ9ChartsData': async () => notYet(),
  'as.m.exam.updateReport': async () => notYet(),
  'as.m.cuser.showOrHiddenReport': async () => notYet(),
  'as.m.exam.clearCUserAssessCount': async () => notYet(),
  'as.m.exam.exportCUserExamData': async () => notYet(),
  'as.m.exam.exportCUserDetailData': async () => notYet(),
  'as.m.exam.exportCUserStatData': async () => notYet(),
} satisfies HandlerMap;
