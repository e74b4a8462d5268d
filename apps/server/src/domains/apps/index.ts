/** What other domains may call of apps: the apps an institution holds and giving it more. */
export { accountsWithApp, addApps, appsOf, assertCanGiveApps } from './handlers.js';
