/** What other domains may call of audit: appending an entry to the audit log. */
export { writeAudit } from './audit.js';
