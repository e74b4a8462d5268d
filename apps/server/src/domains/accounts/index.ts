/**
 * What other domains may call of accounts: the cap on entries through an institution's link; the
 * accounts a caller's statistics cover (an education bureau: the schools of its district).
 */
export { admitLinkEntry } from './link-entries.js';
export { isRegionAuthority, statsAccounts, type StatsAccount } from './statistics-scope.js';
export { accountNames } from './accounts.js';
