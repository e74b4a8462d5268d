/** What other domains may call of assessments: removing a person's results (an undone link burst). */
export { removeResultsOfPersons, resultCountOfPersons } from './erase.js';
export { codeUrl, giveOne } from './codes.js';
export { resolveEntryToken } from './entry.js';
export { previousReport } from './history.js';
export { issueBoughtCode, withdrawIfUnopened } from './issue.js';
export { limitedEntry } from './respondent.js';
