/** What other domains may call of orders: which courses an institution has bought. */
export { courseAccess } from './grants.js';
