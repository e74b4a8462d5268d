import { pgTable, text, timestamp, index, boolean, bigserial, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A signed-in session. Only the SHA-256 of the token is stored, so a database leak does not
 * hand out live sessions. musercode is the institution the session acts for; actor is set when
 * a provider signed in and then acted as one of its institutions (login-as), and actoruserid
 * when the provider's staff user did: the session lives only while its actor is enabled, and
 * holds no code its actor does not (auth/permissions.ts). openedby is the session a login-as
 * session was opened from: it ends with it (revoked with it by a trigger of migration 0025, deleted
 * with it, and refused once it has expired; auth/sessions.ts).
 */
export const session = pgTable(
  'session',
  {
    tokenhash: text().primaryKey(),
    musercode: text().notNull(),
    userid: text(),
    actor: text(),
    actoruserid: text(),
    openedby: text().references((): AnyPgColumn => session.tokenhash, { onDelete: 'cascade' }),
    ip: text().notNull().default(''),
    createdat: timestamp({ withTimezone: true }).notNull(),
    lastseenat: timestamp({ withTimezone: true }).notNull(),
    revokedat: timestamp({ withTimezone: true }),
  },
  (t) => [index('session_muser_idx').on(t.musercode), index('session_user_idx').on(t.userid), index('session_actor_user_idx').on(t.actoruserid), index('session_opened_by_idx').on(t.openedby)],
);

/**
 * Every sign-in attempt: the lockout counts failures per username, the rate limit per address.
 * An attempt is recorded (as a failure) before its password is checked, and id orders attempts
 * that arrive at the same instant, so parallel attempts cannot all read the counts before any
 * of them is counted (auth/login.ts).
 */
export const loginAttempt = pgTable(
  'login_attempt',
  {
    id: bigserial({ mode: 'number' }).notNull(),
    username: text().notNull(),
    ip: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    ok: boolean().notNull(),
  },
  (t) => [index('login_attempt_user_idx').on(t.username, t.at), index('login_attempt_ip_idx').on(t.ip, t.at)],
);

export const loginLock = pgTable('login_lock', {
  username: text().primaryKey(),
  lockeduntil: timestamp({ withTimezone: true }).notNull(),
});
