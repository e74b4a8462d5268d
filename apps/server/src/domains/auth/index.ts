/** What other domains may call of auth: account takeover checks. */
export { assertHoldsAccount } from './takeover.js';
export { scopeWhere } from './scope.js';
