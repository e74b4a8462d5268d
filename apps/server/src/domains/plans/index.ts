/** What other domains may call of plans: the plans an institution may give, their names, whether their forms carry item text. */
export { assertPlanHasItemText, planNames, usablePlans } from './usage.js';
