/** What other domains may call of consultation: erasing a person's registrations (a person's rights, issue 30 §5). */
export { eraseRegistrationsOfPerson } from './rights.js';
export { consultationSealedFields } from './store.js';
