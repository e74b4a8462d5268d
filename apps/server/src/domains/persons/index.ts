/** What other domains may call of persons. */
export { removePersons } from './persons.js';
