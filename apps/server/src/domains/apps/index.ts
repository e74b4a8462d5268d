/** What other domains may call of apps: the apps an institution holds and giving it more. */
export { appExists, appNameOf, appSortOf } from './columns.js';
export { accountsWithApp, addApps, appsOf, assertCanGiveApps } from './handlers.js';
