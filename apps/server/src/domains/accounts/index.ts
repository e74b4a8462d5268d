/**
 * What other domains may call of accounts (DESIGN §4: through functions, never the tables):
 * institution names, the owner checks every handler uses (an institution in scope, the owner of a
 * new row, the institution filter of a list), regions, the institution entry link and its cap,
 * and the accounts a caller's statistics cover (an education bureau: the schools of its district).
 */
export { accountAncestors, accountNames, accountOptions, accountRow, accountSignInNameTaken } from './accounts.js';
export { accountsSealedFields } from './contact.js';
export { accountColumnsOf, insnameOf } from './columns.js';
export { entryOfAccount, resolveEntryToken } from './entry.js';
export { type AccountHooks, hookAccounts } from './hooks.js';
export { admitLinkEntry } from './link-entries.js';
export { accountInScope, type AccountRow, ownedBy, ownerAccount } from './owner.js';
export { type AccountChange, type AccountRecord, accountOfSignInName, accountRecord, changeAccount } from './records.js';
export { checkRegion, regionName } from './regions.js';
export { accountInRegion, isRegionAuthority, type StatsAccount, statsAccounts } from './statistics-scope.js';
