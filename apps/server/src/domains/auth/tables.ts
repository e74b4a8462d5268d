import { pgTable, text, timestamp, index, boolean, bigint, bigserial, type AnyPgColumn } from 'drizzle-orm/pg-core';

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
    /** Signed in with a second factor (a login-as session: its opener was). Login-as needs it where a policy requires one. */
    secondfactor: boolean().notNull().default(false),
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
    // The key an attempt is settled by (without it, each sign-in read every attempt ever made).
    id: bigserial({ mode: 'number' }).primaryKey(),
    username: text().notNull(),
    ip: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    ok: boolean().notNull(),
    /**
     * The password was right but a second factor is still to come: neither a failure (it does not
     * count towards the lock) nor a success (it does not restart the count, so wrong codes after
     * right passwords still lock the username).
     */
    partial: boolean().notNull().default(false),
  },
  (t) => [index('login_attempt_user_idx').on(t.username, t.at), index('login_attempt_ip_idx').on(t.ip, t.at)],
);

export const loginLock = pgTable('login_lock', {
  username: text().primaryKey(),
  lockeduntil: timestamp({ withTimezone: true }).notNull(),
});

/**
 * A person's TOTP second factor (issue 30 §1). subject is `m:<musercode>` for an account and
 * `u:<userid>` for a staff user; musercode is the institution the person belongs to. secret is
 * written and read only through second-factor.ts (storeSecret/readSecret). confirmedat is null
 * while enrolment waits for its first code. laststep is the last TOTP time step accepted: a code is
 * accepted only for a later step, in one conditional update, so a code works once.
 */
export const secondFactor = pgTable('second_factor', {
  subject: text().primaryKey(),
  musercode: text().notNull(),
  userid: text(),
  secret: text().notNull(),
  createdat: timestamp({ withTimezone: true }).notNull(),
  confirmedat: timestamp({ withTimezone: true }),
  laststep: bigint({ mode: 'number' }),
});

/** Ten one-time recovery codes per second factor, argon2id-hashed; usedat is set once, atomically. */
export const recoveryCode = pgTable(
  'recovery_code',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    subject: text()
      .notNull()
      .references(() => secondFactor.subject, { onDelete: 'cascade' }),
    codehash: text().notNull(),
    usedat: timestamp({ withTimezone: true }),
  },
  (t) => [index('recovery_code_subject_idx').on(t.subject)],
);

/**
 * The challenge between the two sign-in steps: only its SHA-256 is stored; bound to the account
 * (and staff user) whose password was right, short-lived, used once. purpose `code` completes a
 * sign-in with a code; `enrol` may only enrol (a policy requires a second factor not yet set up).
 */
export const signInChallenge = pgTable(
  'sign_in_challenge',
  {
    challengehash: text().primaryKey(),
    purpose: text().notNull(),
    username: text().notNull(),
    musercode: text().notNull(),
    userid: text(),
    createdat: timestamp({ withTimezone: true }).notNull(),
    expiresat: timestamp({ withTimezone: true }).notNull(),
    usedat: timestamp({ withTimezone: true }),
  },
  (t) => [index('sign_in_challenge_expires_idx').on(t.expiresat)],
);

/**
 * An account's rule for those below it: required = every account and staff user below must sign
 * in with a second factor. everyone is set when the super account set it (it is above all).
 */
export const secondFactorPolicy = pgTable('second_factor_policy', {
  musercode: text().primaryKey(),
  required: boolean().notNull(),
  everyone: boolean().notNull().default(false),
  updatedat: timestamp({ withTimezone: true }).notNull(),
});
