/**
 * What other domains may call of assessments: issuing, giving and withdrawing assessment codes and
 * their progress, the respondent's entry and start, result counts, a person's previous report,
 * and removing a person's results (an undone link burst).
 */
export { codeUrl, giveOne, insertCode, latestSignature } from './codes.js';
export { cohortCodeStates } from './cohort.js';
export { resolveEntryToken } from './entry.js';
export { removeResultsOfPersons, resultCountOfPersons } from './erase.js';
export { previousReport, unfinishedCodes } from './history.js';
export { answeredCount, codeStates, issueBoughtCode, issueCodes, type Progress, progressOf, withdrawIfUnopened, withdrawUnopenedCodes } from './issue.js';
export { resetUnfinishedCodes } from './reset.js';
export { limitedEntry, startAssessment } from './respondent.js';
export { accountResultCount, resultCount, resultCountsByVersion } from './results.js';
export { withTexts } from './summary.js';
