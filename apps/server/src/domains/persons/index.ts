/** What other domains may call of persons: finding, creating and renaming persons, their archive and rosters. */
export { archiveDisplay, checkArchive } from './archive.js';
export { DEMO_PERSONS, demoPeople } from './demo.js';
export { appName, personWhere } from './list.js';
export { accountPersonCount, assertAppOfInstitution, createPerson, createRosterPersons, findPersonsByName, livingPerson, personArchive, personBriefs, personInScope, personNameLike, personOfGender, type PersonRecord, removePersons, renamePersons, updatePersonArchive } from './persons.js';
export { checkRosterRow, mapHeader, problemsWorkbook, problemText, ROSTER_SHEET, type RosterColumn } from './roster.js';
