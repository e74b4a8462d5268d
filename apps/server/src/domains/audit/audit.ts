import type { DbOrTx } from '../../db/database.js';
import type { AuditEntry } from '../../http/context.js';
import { auditLog } from './tables.js';

/** Appends one row; the log is never updated or deleted (every context's AuditWriter, http/context.ts). */
export async function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({ ...entry, detail: entry.detail ?? {} });
}
