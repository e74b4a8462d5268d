/** What other domains may call of orders: which courses are sold, and which the buyer's orders bought. */
export { courseAccess } from './grants.js';
export { ordersSealedFields } from './contact.js';
