import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/database.js';
import type { AuditEntry } from '../../http/context.js';
import { groupCommit } from '../../kit/index.js';
import { auditLog } from './tables.js';

/** Rows of one insert at most (ten parameters a row, far under PostgreSQL's 65,535). */
const BATCH_ROWS = 500;

const rowOf = (entry: AuditEntry) => ({ ...entry, detail: entry.detail ?? {} });

/**
 * Outside a transaction, entries are inserted as a group commit (kit/group-commit.ts): every insert
 * holds the chain's head row until it commits (migration audit_chain), so fifty requests auditing
 * at once waited for fifty commits one after another; now for one or two.
 */
const insertGrouped = groupCommit<AuditEntry>((db, entries) => db.insert(auditLog).values(entries.map(rowOf)), BATCH_ROWS);

/**
 * Appends one row; the log is never updated or deleted (every context's AuditWriter, http/context.ts).
 * Resolves once the row is committed. Inside a transaction the row is that transaction's.
 */
export function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  if (db instanceof PgTransaction)
    return db
      .insert(auditLog)
      .values(rowOf(entry))
      .then(() => undefined);
  return insertGrouped(db as Db, entry);
}
