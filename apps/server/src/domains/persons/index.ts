/** What other domains may call of persons. */
export { removePersons } from './persons.js';
export { personBriefs, personInScope } from './persons.js';
