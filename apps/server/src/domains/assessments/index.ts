/**
 * What other domains may call of assessments: issuing, giving and withdrawing assessment codes and
 * their progress, the respondent's entry and start, result counts, a person's previous report,
 * showing or hiding results to their respondents, the hooks domains/index.ts hands in (warnings'
 * triggers, tasks' window), removing a person's results (an undone link burst), and a person's
 * rights (rights.ts: erasing their free text and signatures, their last assessment for the retention period).
 */
import { codeEntryJobs } from './respondent.js';
import { respondentSessionJobs } from './respondent-auth.js';
export { codeUrl, giveOne, insertCode, latestSignature } from './codes.js';
export { cohortCodeStates } from './cohort.js';
export { resolveEntryToken } from './entry.js';
export { removeResultsOfPersons, resultCountOfPersons } from './erase.js';
export { previousReport, unfinishedCodes } from './history.js';
export { answeredCount, codeStates, issueBoughtCode, issueCodes, type Progress, progressOf, withdrawIfUnopened, withdrawUnopenedCodes } from './issue.js';
export { resetUnfinishedCodes } from './reset.js';
export { assessedSince, eraseAnswerTextOfPerson } from './rights.js';
export { limitedEntry, startAssessment } from './respondent.js';
export { accountResultCount, resultCount, resultCountsByVersion, setResultsHidden } from './results.js';
export { withTexts } from './summary.js';
export { type AssessmentHooks, hookAssessments, type ReportToStore, type StoredReport, type WarningRaiser } from './hooks.js';
export { assessmentSealedFields } from './sealed.js';

/** The domain's daily housekeeping: code entries past their window, respondent sessions past their week. */
export const assessmentJobs = { ...codeEntryJobs, ...respondentSessionJobs };
