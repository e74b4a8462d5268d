import { and, count, eq, gt, lt, lte, max, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { AppError, fail, type Message } from '../../http/errors.js';
import { signInFailures, signInLockouts } from '../../kit/metrics.js';
import { DAY_MS } from '../../kit/index.js';
import type { JobHandlers } from '../../kit/jobs/index.js';
import { accountOfSignInName, accountRecord, type AccountRecord } from '../accounts/index.js';
import { staffUserOfSignInName, type StaffUserRecord } from '../system/index.js';
import { loginAttempt, loginLock, session } from './tables.js';
import { verifyPassword } from './passwords.js';

export interface SignInTarget {
  account: AccountRecord;
  user: StaffUserRecord | null;
  /** The recorded attempt, settled by the caller: a success, or partial while a second factor is to come. */
  attempt: number;
}

/** Who a sign-in step is for: the username typed, and the account (and staff user) it named. */
export interface SignInPerson {
  username: string;
  musercode: string;
  userid: string | null;
}

const locked = () => new AppError('locked');

/**
 * Checks a sign-in: the per-address rate limit, the per-username lock, then the password.
 * Unknown users and wrong passwords get the same answer after the same work; the fifth
 * failure within the window locks the username (SPEC: 5 in 15 minutes, 15-minute lock).
 *
 * The attempt is recorded first, as a failure, and only then are the counts read; it becomes a
 * success only once the sign-in is complete (settleAttempt). Attempts that arrive together are
 * ordered by the recorded id, and each counts only those before it (and itself, for the rate
 * limit): 100 parallel attempts cannot all read the counts before any of them is counted, so at
 * most lockoutFailures of them ever reach the password check.
 */
export async function checkSignIn(ctx: Ctx, username: string, pwd: string): Promise<SignInTarget> {
  const now = ctx.now();
  const { id, lock } = await openAttempt(ctx, username, now);
  const target = await findAccount(ctx, username);
  const stored = target ? (target.user?.pwdhash ?? target.account.pwdhash) : undefined;
  if (target && (await verifyPassword(stored, pwd))) {
    if (target.account.enabled !== 1 || (target.user && target.user.enabled !== 1)) {
      await ctx.audit({ musercode: target.account.musercode, userid: target.user?.userid ?? null, action: 'as.m.user.login', result: 'fail', detail: { username, reason: 'disabled' } });
      fail('permissionDenied', { zh: '该账号已停用，请联系管理员', en: 'This account is disabled; please contact the administrator' });
    }
    return { ...target, attempt: id };
  }
  if (!target) await verifyPassword(undefined, pwd);
  return failAttempt(ctx, now, lock, { username, musercode: target?.account.musercode ?? '', userid: target?.user?.userid ?? null });
}

/**
 * The second step (a TOTP or recovery code, or the first code of an enrolment): counted against the
 * same username as its password, so wrong codes lock it like wrong passwords, and a right password
 * does not restart the count (its attempt is settled partial). Answers the attempt to settle.
 */
export async function checkCode(ctx: Ctx, who: SignInPerson, accept: () => Promise<boolean>): Promise<number> {
  const now = ctx.now();
  const { id, lock } = await openAttempt(ctx, who.username, now);
  if (await accept()) return id;
  return failAttempt(ctx, now, lock, who, 'code', {
    zh: '验证码不正确或已使用过，请输入验证器上的新验证码',
    en: 'The code is wrong or was already used; enter the new code your authenticator shows',
  });
}

/** A sign-in attempt settled: complete (ok: restarts the failure count), or partial (neither success nor failure). */
export async function settleAttempt(ctx: Ctx, id: number, how: 'ok' | 'partial') {
  await ctx.db
    .update(loginAttempt)
    .set(how === 'ok' ? { ok: true } : { partial: true })
    .where(eq(loginAttempt.id, id));
}

/** Records the attempt, applies the address limit and the username lock. */
async function openAttempt(ctx: Ctx, username: string, now: Date) {
  const id = await recordAttempt(ctx, username, now);
  await limitAddress(ctx, now, id);
  const [lock] = await ctx.db.select().from(loginLock).where(eq(loginLock.username, username));
  const lockedNow = lock && lock.lockeduntil > now;
  if (lockedNow || (await recentFailures(ctx, username, now, lock?.lockeduntil, id)) >= ctx.config.lockoutFailures) {
    await ctx.audit({ musercode: '', action: 'as.m.user.login', result: 'locked', detail: { username } });
    throw locked();
  }
  return { id, lock };
}

/** A failed step: audited; the failure that reaches the limit locks the username. */
async function failAttempt(ctx: Ctx, now: Date, lock: { lockeduntil: Date } | undefined, who: SignInPerson, step?: 'code', message?: Message): Promise<never> {
  const { username, musercode, userid } = who;
  await ctx.audit({ musercode, userid, action: 'as.m.user.login', result: 'fail', detail: step ? { username, step } : { username } });
  signInFailures.inc({ step: step ?? 'password' });
  if ((await recentFailures(ctx, username, now, lock?.lockeduntil)) >= ctx.config.lockoutFailures) {
    const lockeduntil = new Date(now.getTime() + ctx.config.lockoutMinutes * 60_000);
    await ctx.db.insert(loginLock).values({ username, lockeduntil }).onConflictDoUpdate({ target: loginLock.username, set: { lockeduntil } });
    await ctx.audit({ musercode, action: 'lockout', result: 'locked', detail: { username, lockeduntil: lockeduntil.toISOString() } });
    signInLockouts.inc();
    throw locked();
  }
  throw new AppError('wrongCredentials', message);
}

async function findAccount(ctx: Ctx, username: string): Promise<Omit<SignInTarget, 'attempt'> | null> {
  const account = await accountOfSignInName(ctx.db, username);
  if (account) return { account, user: null };
  // A staff user's institution always exists (a foreign key): two reads where one join was.
  const user = await staffUserOfSignInName(ctx.db, username);
  return user ? { account: (await accountRecord(ctx.db, user.musercode))!, user } : null;
}

/**
 * Failures (attempts not yet or never successful) since the window opened, the last lock ended
 * and the last success; with before, only the attempts recorded before that one.
 */
async function recentFailures(ctx: Ctx, username: string, now: Date, lastLockEnd?: Date, before?: number): Promise<number> {
  const windowStart = new Date(now.getTime() - ctx.config.lockoutMinutes * 60_000);
  const since = lastLockEnd && lastLockEnd > windowStart ? lastLockEnd : windowStart;
  const [ok] = await ctx.db.select({ id: max(loginAttempt.id) }).from(loginAttempt).where(and(eq(loginAttempt.username, username), eq(loginAttempt.ok, true)));
  const [row] = await ctx.db
    .select({ n: count() })
    .from(loginAttempt)
    .where(
      and(
        eq(loginAttempt.username, username),
        eq(loginAttempt.ok, false),
        eq(loginAttempt.partial, false),
        gt(loginAttempt.at, since),
        ok?.id ? gt(loginAttempt.id, ok.id) : undefined,
        before === undefined ? undefined : lt(loginAttempt.id, before),
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * Records an attempt under transaction locks on its address and its username. Ids come from a
 * sequence when the insert runs, but inserts commit in any order: without the locks an attempt
 * counting "ids before mine" could miss an earlier one not yet committed, and a few more than the
 * limit got through. With them, attempts of one address (or one username) are inserted and
 * committed one after another, so every earlier id is visible to the counts that follow.
 * Address then username, always: no two attempts wait on each other in a cycle.
 */
async function recordAttempt(ctx: Ctx, username: string, now: Date): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(1, hashtext(${ctx.ip}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(2, hashtext(${username}))`);
    const [{ id }] = await tx.insert(loginAttempt).values({ username, ip: ctx.ip, at: now, ok: false }).returning({ id: loginAttempt.id });
    return id;
  });
}

/**
 * Whether this address has used up its sign-ins of the last minute: the action route asks before it
 * reads a sign-in's body (issue 27), so a limited address costs the server no body at all.
 */
export async function signInRateSpent(db: Db, config: Config, now: Date, ip: string): Promise<boolean> {
  const since = new Date(now.getTime() - 60_000);
  const [row] = await db
    .select({ n: count() })
    .from(loginAttempt)
    .where(and(eq(loginAttempt.ip, ip), gt(loginAttempt.at, since)));
  return Number(row?.n ?? 0) >= config.loginPerMinutePerAddress;
}

/**
 * Sign-in attempts are kept a day, or the lock's window if longer: only those windows count them
 * (the audit log keeps every sign-in), and an address is personal data, not kept past its use.
 * Sessions past their absolute lifetime are kept as long, then removed with the login-as sessions
 * opened from them (which ended with them): a token of a removed session is unknown, answered as a
 * revoked one is.
 */
export const signInJobs: JobHandlers = {
  'auth.pruneSignIns': {
    every: DAY_MS,
    async run(_payload, ctx) {
      const ago = (ms: number) => new Date(ctx.now().getTime() - Math.max(DAY_MS, ms));
      await ctx.db.delete(loginAttempt).where(lt(loginAttempt.at, ago(ctx.config.lockoutMinutes * 60_000)));
      await ctx.db.delete(session).where(lt(session.createdat, ago(ctx.config.sessionAbsoluteHours * 3_600_000)));
    },
  },
};

/** Attempts from this address within the last minute, up to and including this one. */
async function limitAddress(ctx: Ctx, now: Date, id: number) {
  const since = new Date(now.getTime() - 60_000);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(loginAttempt)
    .where(and(eq(loginAttempt.ip, ctx.ip), gt(loginAttempt.at, since), lte(loginAttempt.id, id)));
  if (Number(row?.n ?? 0) > ctx.config.loginPerMinutePerAddress) throw new AppError('rateLimited', undefined, 429);
}
