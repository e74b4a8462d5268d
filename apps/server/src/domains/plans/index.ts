/** What other domains may call of plans: finding plans and stages, and using an authorisation. */
export { accountPlanCount, findFilterStage, findPlan, findStage, stagesOfAccount } from './access.js';
export { assertPlanHasItemText, authorisationWindow, planFormcodes, planNameOf, planNames, returnPlanCount, stageBriefs, stageFormcodes, stageNameOf, usablePlans, usePlanCounts, usePlanFor } from './usage.js';
