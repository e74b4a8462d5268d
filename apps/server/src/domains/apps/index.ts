/** What other domains may call of apps: an institution's apps. */
export { appsOf } from './handlers.js';
