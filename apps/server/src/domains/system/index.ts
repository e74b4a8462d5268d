/** What other domains may call of system: staff names and counts. */
export { actorNames, staffCount, staffNames } from './common.js';
export { changeStaffUser, type StaffUserChange, staffUserOfSignInName, staffUserRecord, type StaffUserRecord } from './records.js';
export { staffBriefs } from './staff.js';
export { staffContactColumns, systemSealedFields } from './contact.js';
