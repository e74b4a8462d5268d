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
import { reportTemplateHandlers } from './reports/custom/handlers.js';
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
import { ordersSealedFields } from './orders/index.js';
import { retentionJobs } from './persons/rights.js';
import { auditHandlers } from './audit/handlers.js';
import { auditJobs } from './audit/index.js';
import type { SealedField } from '../kit/crypt/index.js';
import { consentHandlers } from './consent/handlers.js';
import { accountsSealedFields, hookAccounts } from './accounts/index.js';
import { appsOf } from './apps/index.js';
import {
  assessedSince,
  assessmentSealedFields,
  assessmentJobs,
  eraseAnswerTextOfPerson,
  hookAssessments,
  removeResultsOfPersons,
  resultCount,
  resultCountOfPersons,
} from './assessments/index.js';
import { authSealedFields, signInJobs } from './auth/index.js';
import { consentsOfPerson, eraseConsentIdentity } from './consent/index.js';
import { consultationSealedFields, eraseRegistrationsOfPerson } from './consultation/index.js';
import { hookScales } from './scales/index.js';
import { hookPersonRights, personsSealedFields, removePersons } from './persons/index.js';
import { stagesOfAccount } from './plans/index.js';
import {
  approvedForPerson,
  eraseReportTextOfPerson,
  indicatorRows,
  keepTemplateVersion,
  reportRecordsOfPerson,
  respondentView,
  storeIndicators,
} from './reports/index.js';
import { systemSealedFields } from './system/index.js';
import { closedTaskWindow, eraseStudentNumbersOfPerson } from './tasks/index.js';
import {
  caseActivitySince,
  caseCountOfPersons,
  caseRecordsOfPerson,
  eraseCaseTextOfPerson,
  latestCases,
  removeCasesOfPersons,
  raiseWarningsForSubmission,
  submissionBasis,
  raiseWarningsForReports,
} from './warnings/index.js';

// Hooks: a domain that others read gets what it needs of them handed in here rather than importing
// them, so each pair of domains depends one way only.
// An institution's entry offers its own apps and stages; undoing a burst of QR-link sign-ups removes
// what those persons left in each domain (cases first: their warnings name the reports).
hookAccounts({
  offer: { appsOf, stagesOf: stagesOfAccount },
  linkUndo: {
    latestCases,
    caseCount: caseCountOfPersons,
    resultCount: resultCountOfPersons,
    removeCases: removeCasesOfPersons,
    removeResults: removeResultsOfPersons,
    removePersons,
  },
});
// A form version with results is frozen: editing it (or a changed built-in form) makes a new version.
hookScales({ resultCount });
// A stored report raises its warnings, and a task's code opens only in the task's time.
// A submitted report stores its indicators, and a respondent reads their approved written report.
hookAssessments({
  warnings: { basisOf: submissionBasis, forReport: raiseWarningsForSubmission, forReports: raiseWarningsForReports },
  reports: {
    storeIndicators: (tx, reportid, def, score) => storeIndicators(tx, indicatorRows(reportid, def, score)),
    approvedForPerson,
    // The custom report keeps its template's version from its scoring, and the version decides what its respondent sees (issue 31 §4).
    keepTemplateVersion,
    respondentView,
  },
  taskWindow: closedTaskWindow,
});
// A person's rights (issue 30 §5): the record's sections, the erasers and the activity other domains keep.
hookPersonRights({
  sections: [
    {
      key: 'reports',
      title: { zh: '测评报告（含作答与得分）', en: 'Reports (answers and scores)' },
      read: (ctx, p) => reportRecordsOfPerson(ctx, p.cusercode),
    },
    {
      key: 'cases',
      title: { zh: '预警个案（含预警、处理记录与随访）', en: 'Warning cases (warnings, events, follow-ups)' },
      read: (ctx, p) => caseRecordsOfPerson(ctx, p.cusercode),
    },
    { key: 'consents', title: { zh: '知情同意记录', en: 'Consents' }, read: (ctx, p) => consentsOfPerson(ctx, p.cusercode) },
  ],
  erasers: [
    eraseAnswerTextOfPerson,
    eraseReportTextOfPerson,
    eraseCaseTextOfPerson,
    eraseRegistrationsOfPerson,
    eraseStudentNumbersOfPerson,
    eraseConsentIdentity,
  ],
  activeSince: [assessedSince, caseActivitySince],
});

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
  ...reportTemplateHandlers,
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
  ...auditHandlers,
  ...consentHandlers,
};

/** Every domain's background job kinds (kit/jobs). A domain with jobs adds one line here. */
export const jobHandlers: JobHandlers = {
  ...auditJobs,
  ...warningJobs,
  [WRITTEN_JOB]: writtenReportJob,
  [REPORT_ZIP_JOB]: reportZipJob,
  [GROUP_SUMMARY_JOB]: groupSummaryJob,
  ...orderJobs,
  ...retentionJobs,
  ...signInJobs,
  ...assessmentJobs,
};

/** Every column a domain keeps sealed (kit/crypt): sealed at start-up if still plain, re-sealed by a rotation. */
export const sealedFields: SealedField[] = [...personsSealedFields, ...accountsSealedFields, ...systemSealedFields, ...ordersSealedFields, ...assessmentSealedFields, ...authSealedFields, ...consultationSealedFields];

/** Catalogued actions without a handler; the server will not start while this is non-empty. */
export function missingHandlers(map: HandlerMap = handlers): string[] {
  return actionNames.filter((name) => typeof map[name] !== 'function');
}
