/**
 * What other domains may call of audit: appending an entry to the audit log, verifying its hash
 * chain (the audit:verify command), and the retention job (AUDIT_RETENTION_DAYS).
 */
export { writeAudit } from './audit.js';
export { verifyChain } from './chain.js';
export { auditJobs, MIN_RETENTION_DAYS, purgeAudit, startAuditRetention } from './retention.js';
