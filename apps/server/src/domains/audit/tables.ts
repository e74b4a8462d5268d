import { pgTable, text, timestamp, jsonb, bigint, index, integer, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Append-only audit log (DESIGN §5): sign-ins, lockouts, logouts, login-as, password changes,
 * permission denials, reads of reports, archives and full phone or ID numbers, imports and exports.
 * No code path updates a row. The database (migration audit_chain) refuses UPDATE and TRUNCATE,
 * refuses DELETE of rows younger than 180 days or outside the retention job, and chains every
 * row on insert: `hash` is SHA-256 over the row's canonical form (with its place `seq`) and `prevhash`, the hash of
 * the row before it (audit_canonical() in SQL, the one definition of that form).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp({ withTimezone: true }).notNull(),
    musercode: text().notNull().default(''),
    userid: text(),
    actor: text(),
    action: text().notNull(),
    result: text().notNull(),
    detail: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    ip: text().notNull().default(''),
    requestid: text().notNull().default(''),
    /** Set by the insert trigger under the chain's lock: the entry's place in the chain (1, 2, …). */
    seq: bigint({ mode: 'number' }).notNull().default(0),
    /** Set by the insert trigger: the hash of the row before (the chain's anchor for the first). */
    prevhash: text().notNull().default(''),
    /** Set by the insert trigger: sha256(audit_canonical(row, prevhash)), hex. */
    hash: text().notNull().default(''),
  },
  (t) => [index('audit_at_idx').on(t.at), index('audit_muser_idx').on(t.musercode, t.at), index('audit_action_idx').on(t.action, t.at), uniqueIndex('audit_seq_unique').on(t.seq), uniqueIndex('audit_hash_unique').on(t.hash)],
);

/**
 * The head of the chain, one row (`one` = 1): the place and hash of the newest entry, locked FOR UPDATE by
 * every insert so parallel inserts chain one after another; and the anchor, the hash and place
 * of the newest entry the retention job removed, where verification starts.
 */
export const auditChain = pgTable('audit_chain', {
  one: integer().primaryKey().default(1),
  headseq: bigint({ mode: 'number' }).notNull().default(0),
  headhash: text().notNull().default(''),
  anchorseq: bigint({ mode: 'number' }).notNull().default(0),
  anchorhash: text().notNull().default(''),
});
