/** What other domains may call of persons: finding, creating and renaming persons, their archive and rosters. */
export { archiveDisplay, checkArchive } from './archive.js';
export { DEMO_PERSONS, demoPeople } from './demo.js';
export { appName, listedPerson, personListWith, personWhere } from './list.js';
export { accountPersonCount, assertAppOfInstitution, createPerson, createRosterPersons, assertNotAnonymised, assertPersonNotAnonymised, findPersonsByName, livingPerson, livingPersonsInScope, personArchive, personBriefs, personInScope, personColumnsOf, personNameLike, personNameMatching, personName, personOfGender, type PersonRecord, removePersons, renamePersons, updatePersonArchive } from './persons.js';
export { openArchive, personsSealedFields, sealArchive } from './identity.js';
export { checkRosterRow, mapHeader, problemsWorkbook, problemText, ROSTER_SHEET, type RosterColumn } from './roster.js';
export { hookPersonRights, type PersonRightsHooks, type RecordSection } from './hooks.js';
