/**
 * What other domains may call of reports: a person's reports, a cohort's levels and attention
 * list, indicators, the pieces of a printed report (template, charts, PDF), the LLM client and
 * approved written reports.
 */
export { levelStackChart } from './document/charts.js';
export { canMakePdf, NO_CHROMIUM, openPrinter } from './document/pdf.js';
export { chinaTime, CSS, esc, PAGE_NUMBER_CSS } from './document/template.js';
export { cohortAttention, cohortIndicatorLevels, cohortWorstLevels, type GroupWorst, setReportsHidden } from './group.js';
export { indicatorRows, storeIndicators } from './indicators.js';
export { reportCountOfPerson, reportsOfPerson } from './reports.js';
export { askLlmJson, type Cell, cellTable, jsonRequest, type LlmConfig } from './written/llm.js';
export { riskRank } from './written/rules.js';
export { approvedForPerson } from './written/store.js';
