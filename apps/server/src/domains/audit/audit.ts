import type { DbOrTx } from '../../db/database.js';
import { auditLog } from './tables.js';

export interface AuditEntry {
  at: Date;
  musercode: string;
  userid: string | null;
  actor: string | null;
  action: string;
  result: 'ok' | 'fail' | 'denied' | 'locked';
  detail?: Record<string, unknown>;
  ip: string;
  requestid: string;
}

/** Appends one row; the log is never updated or deleted. */
export async function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({ ...entry, detail: entry.detail ?? {} });
}
