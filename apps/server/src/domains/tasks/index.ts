/** What other domains may call of tasks: class teams and rosters, persons' current grades, whether a task is closed, and erasing a person's student numbers. */
export { classTeams, closedTaskWindow, currentGradesOf, givenToClass, teamInScope, teamName, teamRoster } from './store.js';
export { eraseStudentNumbersOfPerson } from './rights.js';
