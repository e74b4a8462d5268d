import { and, count, eq, gt, max } from 'drizzle-orm';
import type { Ctx } from '../../http/context.js';
import { AppError, fail } from '../../http/errors.js';
import { muser } from '../accounts/tables.js';
import { sysuser } from '../system/tables.js';
import { loginAttempt, loginLock } from './tables.js';
import { verifyPassword } from './passwords.js';

export interface SignInTarget {
  account: typeof muser.$inferSelect;
  user: typeof sysuser.$inferSelect | null;
}

const locked = () => new AppError('locked');

/**
 * Checks a sign-in: the per-address rate limit, the per-username lock, then the password.
 * Unknown users and wrong passwords get the same answer after the same work; the fifth
 * failure within the window locks the username (SPEC: 5 in 15 minutes, 15-minute lock).
 */
export async function checkSignIn(ctx: Ctx, username: string, pwd: string): Promise<SignInTarget> {
  const now = ctx.now();
  await limitAddress(ctx, now);
  const [lock] = await ctx.db.select().from(loginLock).where(eq(loginLock.username, username));
  if (lock && lock.lockeduntil > now) {
    await recordAttempt(ctx, username, false);
    await ctx.audit({ musercode: '', action: 'as.m.user.login', result: 'locked', detail: { username } });
    throw locked();
  }

  const target = await findAccount(ctx, username);
  const stored = target ? (target.user?.pwdhash ?? target.account.pwdhash) : undefined;
  if (target && (await verifyPassword(stored, pwd))) {
    if (target.account.enabled !== 1 || (target.user && target.user.enabled !== 1)) {
      await ctx.audit({ musercode: target.account.musercode, userid: target.user?.userid ?? null, action: 'as.m.user.login', result: 'fail', detail: { username, reason: 'disabled' } });
      fail('permissionDenied', { zh: '该账号已停用，请联系管理员', en: 'This account is disabled; please contact the administrator' });
    }
    await recordAttempt(ctx, username, true);
    return target;
  }
  if (!target) await verifyPassword(undefined, pwd);

  await recordAttempt(ctx, username, false);
  await ctx.audit({ musercode: target?.account.musercode ?? '', userid: target?.user?.userid ?? null, action: 'as.m.user.login', result: 'fail', detail: { username } });
  if ((await recentFailures(ctx, username, now, lock?.lockeduntil)) >= ctx.config.lockoutFailures) {
    const lockeduntil = new Date(now.getTime() + ctx.config.lockoutMinutes * 60_000);
    await ctx.db.insert(loginLock).values({ username, lockeduntil }).onConflictDoUpdate({ target: loginLock.username, set: { lockeduntil } });
    await ctx.audit({ musercode: target?.account.musercode ?? '', action: 'lockout', result: 'locked', detail: { username, lockeduntil: lockeduntil.toISOString() } });
    throw locked();
  }
  throw new AppError('wrongCredentials');
}

async function findAccount(ctx: Ctx, username: string): Promise<SignInTarget | null> {
  const [account] = await ctx.db.select().from(muser).where(eq(muser.username, username));
  if (account) return { account, user: null };
  const [row] = await ctx.db.select().from(sysuser).innerJoin(muser, eq(muser.musercode, sysuser.musercode)).where(eq(sysuser.sysusername, username));
  return row ? { account: row.muser, user: row.sysuser } : null;
}

/** Failures since the window opened, the last lock ended and the last success. */
async function recentFailures(ctx: Ctx, username: string, now: Date, lastLockEnd?: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - ctx.config.lockoutMinutes * 60_000);
  const since = lastLockEnd && lastLockEnd > windowStart ? lastLockEnd : windowStart;
  const [ok] = await ctx.db.select({ at: max(loginAttempt.at) }).from(loginAttempt).where(and(eq(loginAttempt.username, username), eq(loginAttempt.ok, true)));
  const from = ok?.at && ok.at > since ? ok.at : since;
  const [row] = await ctx.db
    .select({ n: count() })
    .from(loginAttempt)
    .where(and(eq(loginAttempt.username, username), eq(loginAttempt.ok, false), gt(loginAttempt.at, from)));
  return Number(row?.n ?? 0);
}

async function limitAddress(ctx: Ctx, now: Date) {
  const since = new Date(now.getTime() - 60_000);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(loginAttempt)
    .where(and(eq(loginAttempt.ip, ctx.ip), gt(loginAttempt.at, since)));
  if (Number(row?.n ?? 0) >= ctx.config.loginPerMinutePerAddress) throw new AppError('rateLimited', undefined, 429);
}

async function recordAttempt(ctx: Ctx, username: string, ok: boolean) {
  await ctx.db.insert(loginAttempt).values({ username, ip: ctx.ip, at: ctx.now(), ok });
}

