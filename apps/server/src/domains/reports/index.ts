/**
 * What other domains may call of reports: a person's reports, a cohort's levels and attention
 * list, indicators, the pieces of a printed report (template, charts, PDF), the LLM client and
 * approved written reports, the custom report's respondent view, and a person's rights (rights.ts: their reports in the export, staff
 * text about them erased).
 */
export { levelStackChart } from './document/charts.js';
export { canMakePdf, NO_CHROMIUM, openPrinter } from '../../kit/pdf.js';
export { chinaTime, CSS, esc, PAGE_NUMBER_CSS } from '../../kit/print.js';
export { cohortAttention, cohortIndicatorLevels, cohortWorstLevels, type GroupWorst, setReportsHidden } from './group.js';
export { indicatorRows, storeIndicators } from './indicators.js';
export { reportCountOfPerson, reportsOfPerson } from './reports.js';
export { eraseReportTextOfPerson, reportRecordsOfPerson } from './rights.js';
export { askLlmJson, type Cell, cellTable, jsonRequest, type LlmConfig } from './written/llm.js';
export { riskRank } from './written/rules.js';
export { approvedForPerson } from './written/store.js';
export { keepTemplateVersion, respondentView } from './custom/use.js';
