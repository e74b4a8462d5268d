import { actionNames } from '@xinli/contract';
import type { HandlerMap } from '../http/handlers.js';
import type { JobHandlers } from '../kit/jobs/index.js';
import { authHandlers } from './auth/handlers.js';
import { accountHandlers } from './accounts/handlers.js';
import { appHandlers } from './apps/handlers.js';
import { systemHandlers } from './system/handlers.js';
import { scalesHandlers } from './scales/handlers.js';
import { plansHandlers } from './plans/handlers.js';
import { personHandlers } from './persons/handlers.js';
import { assessmentHandlers } from './assessments/handlers.js';
import { reportsHandlers } from './reports/handlers.js';
import { consultationHandlers } from './consultation/handlers.js';
import { warningsHandlers } from './warnings/handlers.js';
import { warningJobs } from './warnings/jobs.js';
import { reportDocumentHandlers } from './reports/document/handlers.js';
import { REPORT_ZIP_JOB, reportZipJob } from './reports/document/export.js';
import { writtenReportHandlers } from './reports/written/handlers.js';
import { taskHandlers } from './tasks/handlers.js';
import { fileHandlers } from './files/handlers.js';
import { contentHandlers } from './content/handlers.js';
import { ordersHandlers } from './orders/handlers.js';
import { taskEntryHandlers } from './tasks/entry.js';
import { groupReportHandlers } from './tasks/group-report/handlers.js';
import { statisticsHandlers } from './statistics/handlers.js';
import { planAuthorizeReportHandlers } from './plans/authorize-report.js';
import { GROUP_SUMMARY_JOB, groupSummaryJob } from './tasks/group-report/summary.js';
import { WRITTEN_JOB, writtenReportJob } from './reports/written/store.js';
import { orderJobs } from './orders/expiry.js';

/** Every domain's handlers. A new domain adds one line here. */
export const handlers: HandlerMap = {
  ...authHandlers,
  ...accountHandlers,
  ...appHandlers,
  ...systemHandlers,
  ...scalesHandlers,
  ...plansHandlers,
  ...personHandlers,
  ...assessmentHandlers,
  ...reportsHandlers,
  ...reportDocumentHandlers,
  ...consultationHandlers,
  ...warningsHandlers,
  ...writtenReportHandlers,
  ...taskHandlers,
  ...taskEntryHandlers,
  ...groupReportHandlers,
  ...statisticsHandlers,
  ...planAuthorizeReportHandlers,
  ...fileHandlers,
  ...contentHandlers,
  ...ordersHandlers,
};

/** Every domain's background job kinds (kit/jobs). A domain with jobs adds one line here. */
export const jobHandlers: JobHandlers = {
  ...warningJobs,
  [WRITTEN_JOB]: writtenReportJob,
  [REPORT_ZIP_JOB]: reportZipJob,
  [GROUP_SUMMARY_JOB]: groupSummaryJob,
  ...orderJobs,
};

/** Catalogued actions without a handler; the server will not start while this is non-empty. */
export function missingHandlers(map: HandlerMap = handlers): string[] {
  return actionNames.filter((name) => typeof map[name] !== 'function');
}
