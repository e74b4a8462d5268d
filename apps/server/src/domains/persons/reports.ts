/**
 * A person's reports over time, for the archive (getCUserArchive) and the person detail: the
 * assessment domain stores reports and answers these (DESIGN §4: through its functions).
 */
export { reportCountOfPerson, reportsOfPerson } from '../reports/reports.js';
