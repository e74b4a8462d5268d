/** What other domains may call of tasks: a task of a code, class teams and whether a task is closed. */
export { classTeams, givenToClass, taskClosedMessage, taskOfCode, teamInScope } from './store.js';
