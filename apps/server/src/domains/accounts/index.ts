/** What other domains may call of accounts: the cap on entries through an institution's link. */
export { admitLinkEntry } from './link-entries.js';
