import { pgTable, text, timestamp, jsonb, bigint, index } from 'drizzle-orm/pg-core';

/**
 * Append-only audit log (DESIGN §5): sign-ins, lockouts, logouts, login-as, password changes,
 * permission denials, and later reads of archives, imports and exports. No code path updates
 * or deletes a row; on PostgreSQL a trigger refuses both.
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
  },
  (t) => [index('audit_at_idx').on(t.at), index('audit_muser_idx').on(t.musercode, t.at)],
);
