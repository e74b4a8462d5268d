/** What other domains may call of content: an institution's courses (the goods that sell them). */
export { coursesOfInstitution } from './courses.js';
