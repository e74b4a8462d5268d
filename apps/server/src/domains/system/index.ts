/** What other domains may call of system: staff names and counts. */
export { staffCount, staffNames } from './common.js';
export { staffBriefs } from './staff.js';
