import { randomInt } from 'node:crypto';
import { and, count, eq, inArray, isNotNull, isNull, lt, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { DbOrTx } from '../../db/database.js';
import { invalid } from '../../http/errors.js';
import { open, seal, type SealedField } from '../../kit/crypt/index.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { recoveryCode, secondFactor } from './tables.js';

/**
 * TOTP second factor (RFC 6238, issue 30 §1) through otpauth: SHA-1, six digits, 30-second steps,
 * what every authenticator app reads from an otpauth:// URI. A code of the step before or after is
 * accepted too (clock drift), and only for a step later than the last accepted one.
 */
const ISSUER = 'Xinli';
const PERIOD = 30;
const RECOVERY_CODES = 10;
/** Crockford-like: no 0/O, 1/I/L, so a code read aloud or off paper is typed right. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Whose second factor: an account (`m:`) or a staff user (`u:`). */
export interface Person {
  musercode: string;
  userid: string | null;
}
export const subjectOf = (p: Person) => (p.userid ? `u:${p.userid}` : `m:${p.musercode}`);

/**
 * The ONE place a TOTP secret is written to or read from its column: sealed at rest (kit/crypt,
 * AES-256-GCM), as authentication data must be (MLPS CES1-28); nothing else touches secondFactor.secret.
 */
export const storeSecret = (secret: string): string => seal(secret);
export const readSecret = (stored: string): string => open(stored);

/** The secret column, for the start-up sealing of plain rows and for key rotation. */
export const authSealedFields: SealedField[] = [{ kind: 'text', table: 'second_factor', key: 'subject', column: 'secret' }];

const totpOf = (secret: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** The time step a code is valid for at `now`, or null: the current step, or one either side. */
function stepOfCode(secret: string, code: string, now: Date): number | null {
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD) + delta;
}

/** The current code of a secret (the demo, create-admin and tests compute codes with it). */
export const currentCode = (secret: string, now: Date) => totpOf(secret, '').generate({ timestamp: now.getTime() });

async function factorOf(db: DbOrTx, p: Person) {
  const [row] = await db
    .select()
    .from(secondFactor)
    .where(eq(secondFactor.subject, subjectOf(p)));
  return row;
}

/** Whether the person has a confirmed second factor. */
export async function isEnrolled(db: DbOrTx, p: Person): Promise<boolean> {
  return !!(await factorOf(db, p))?.confirmedat;
}

export async function recoveryCodesLeft(db: DbOrTx, p: Person): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCode)
    .where(and(eq(recoveryCode.subject, subjectOf(p)), isNull(recoveryCode.usedat)));
  return Number(row?.n ?? 0);
}

/**
 * Starts (or restarts) enrolment: a new random 160-bit secret (the embedded demo gives its own),
 * unconfirmed until its first code. label is what the authenticator app lists (the sign-in name).
 */
export async function beginEnrolment(db: DbOrTx, p: Person, label: string, now: Date, secret = new Secret({ size: 20 }).base32) {
  const values = {
    musercode: p.musercode,
    userid: p.userid,
    secret: storeSecret(secret),
    createdat: now,
    confirmedat: null,
    laststep: null,
  };
  // Only a missing or unconfirmed factor is (re)started, in the same statement: a confirmed one is
  // replaced only after it is turned off or reset, whichever path asks.
  const started = await db
    .insert(secondFactor)
    .values({ subject: subjectOf(p), ...values })
    .onConflictDoUpdate({ target: secondFactor.subject, set: values, where: isNull(secondFactor.confirmedat) })
    .returning({ subject: secondFactor.subject });
  if (!started.length) {
    invalid({
      zh: '双重验证已开启；如需更换验证器，请先关闭',
      en: 'The second factor is already on; to change the authenticator, turn it off first',
    });
  }
  const uri = totpOf(secret, label).toString();
  return { uri, secret, qr: await QRCode.toDataURL(uri, { margin: 1, width: 240 }) };
}

/**
 * Accepts a code once: the step it belongs to must be later than the last accepted, and is
 * recorded in the same conditional update, so of two parallel calls with one code only one
 * updates the row (PostgreSQL re-checks the condition on the row the first one committed).
 * pending: check the unconfirmed secret of an enrolment instead of a confirmed one.
 */
export async function acceptCode(db: DbOrTx, p: Person, code: string, now: Date, pending = false): Promise<boolean> {
  const row = await factorOf(db, p);
  if (!row || !!row.confirmedat === pending) return false;
  const step = stepOfCode(readSecret(row.secret), code, now);
  if (step === null) return false;
  const done = await db
    .update(secondFactor)
    .set({ laststep: step, ...(pending ? { confirmedat: now } : {}) })
    .where(
      and(
        eq(secondFactor.subject, row.subject),
        or(isNull(secondFactor.laststep), lt(secondFactor.laststep, step)),
        pending ? isNull(secondFactor.confirmedat) : isNotNull(secondFactor.confirmedat),
      ),
    )
    .returning({ subject: secondFactor.subject });
  return done.length === 1;
}

const normaliseRecovery = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Ten new recovery codes (the old ones are deleted), stored argon2id-hashed; answered once, for showing. */
export async function newRecoveryCodes(db: DbOrTx, p: Person): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const hashes = await Promise.all(codes.map((c) => hashPassword(normaliseRecovery(c))));
  await db.delete(recoveryCode).where(eq(recoveryCode.subject, subjectOf(p)));
  await db.insert(recoveryCode).values(hashes.map((codehash) => ({ subject: subjectOf(p), codehash })));
  return codes;
}

/** Uses up one unused recovery code; the conditional update makes a code good for one sign-in even in parallel. */
export async function useRecoveryCode(db: DbOrTx, p: Person, code: string, now: Date): Promise<boolean> {
  const given = normaliseRecovery(code);
  const rows = await db
    .select({ id: recoveryCode.id, codehash: recoveryCode.codehash })
    .from(recoveryCode)
    .where(and(eq(recoveryCode.subject, subjectOf(p)), isNull(recoveryCode.usedat)));
  for (const row of rows) {
    if (!(await verifyPassword(row.codehash, given))) continue;
    const used = await db
      .update(recoveryCode)
      .set({ usedat: now })
      .where(and(eq(recoveryCode.id, row.id), isNull(recoveryCode.usedat)))
      .returning({ id: recoveryCode.id });
    return used.length === 1;
  }
  return false;
}

/** Removes the second factor and its recovery codes (turned off, or reset by an administrator). */
export async function removeSecondFactor(db: DbOrTx, p: Person): Promise<boolean> {
  const gone = await db
    .delete(secondFactor)
    .where(eq(secondFactor.subject, subjectOf(p)))
    .returning({ subject: secondFactor.subject });
  return gone.length > 0;
}

/**
 * A list filter of another domain's rows: whether the person in the row signs in with a confirmed
 * second factor (1) or not (0). `of` names the column that holds the person (subjectOf in SQL).
 */
export function secondFactorWhere(of: { userid: AnyColumn } | { musercode: AnyColumn }, on: 0 | 1): SQL {
  const subject = 'userid' in of ? sql`'u:' || ${of.userid}` : sql`'m:' || ${of.musercode}`;
  const enrolled = sql`exists (select 1 from ${secondFactor} where ${secondFactor.subject} = ${subject} and ${secondFactor.confirmedat} is not null)`;
  return on ? enrolled : sql`not ${enrolled}`;
}

/** Which of these people have a confirmed second factor (the account and staff lists show it). */
export async function enrolledSubjects(db: DbOrTx, subjects: string[]): Promise<Set<string>> {
  if (!subjects.length) return new Set();
  const rows = await db
    .select({ subject: secondFactor.subject })
    .from(secondFactor)
    .where(and(inArray(secondFactor.subject, subjects), isNotNull(secondFactor.confirmedat)));
  return new Set(rows.map((r) => r.subject));
}
