/** What other domains may call of system: the names of staff users. */
export { staffBriefs } from './staff.js';
