/** What other domains may call of content: the courses an institution may see. */
export { coursesOfInstitution } from './media.js';
