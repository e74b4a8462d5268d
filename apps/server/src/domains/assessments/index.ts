/** What other domains may call of assessments: removing a person's results (an undone link burst). */
export { removeResultsOfPersons, resultCountOfPersons } from './erase.js';
