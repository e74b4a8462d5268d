import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/database.js';
import type { AuditEntry } from '../../http/context.js';
import { preparedRows } from '../../kit/index.js';
import { auditLog } from './tables.js';

/** Rows of one insert at most (ten parameters a row, far under PostgreSQL's 65,535). */
const BATCH_ROWS = 500;

interface Waiting {
  entry: AuditEntry;
  done: (error?: unknown) => void;
}
interface Queue {
  waiting: Waiting[];
  flushing: boolean;
}

/** Per database, the entries waiting for the insert in flight to end. */
const queues = new WeakMap<Db, Queue>();

const rowOf = (entry: AuditEntry) => ({ ...entry, detail: entry.detail ?? {} });
/** The entries' rows: the chain's columns (seq, prevhash, hash) are the insert trigger's. */
const insertRows = preparedRows('audit_rows', auditLog, ['at', 'musercode', 'userid', 'actor', 'action', 'result', 'detail', 'ip', 'requestid']);

/**
 * Appends one row; the log is never updated or deleted (every context's AuditWriter, http/context.ts).
 * Resolves once the row is committed. Inside a transaction the row is that transaction's. Outside,
 * entries that arrive while an insert is in flight go together in the next one (a group commit):
 * every insert holds the chain's head row until it commits (migration audit_chain), so fifty
 * requests auditing at once waited for fifty commits one after another; now for one or two.
 */
export function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  if (db instanceof PgTransaction) return insertRows(db, [rowOf(entry)]);
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { waiting: [], flushing: false }));
  const q = queue;
  return new Promise<void>((resolve, reject) => {
    q.waiting.push({ entry, done: (error) => (error === undefined ? resolve() : reject(error)) });
    if (!q.flushing) void flush(db, q);
  });
}

async function insertAlone(db: Db, w: Waiting) {
  try {
    await insertRows(db, [rowOf(w.entry)]);
    w.done();
  } catch (e) {
    w.done(e ?? new Error('audit insert failed'));
  }
}

/** Inserts what waits, batch after batch, until nothing does. */
async function flush(db: Db, q: Queue) {
  q.flushing = true;
  try {
    while (q.waiting.length) {
      const batch = q.waiting.splice(0, BATCH_ROWS);
      try {
        await insertRows(db, batch.map((w) => rowOf(w.entry)));
        for (const w of batch) w.done();
      } catch {
        // One bad entry must not fail its neighbours' requests: each alone then, with its own outcome.
        await Promise.all(batch.map((w) => insertAlone(db, w)));
      }
    }
  } finally {
    q.flushing = false;
  }
}
