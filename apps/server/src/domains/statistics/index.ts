/** What other domains may call of statistics: the rule of a counted and of an abnormal report. */
export { abnormalReport, countedReport } from './rules.js';
