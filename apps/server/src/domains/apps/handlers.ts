import { and, asc, eq, inArray } from 'drizzle-orm';
import { populationApps, type AppEntry } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import type { DbOrTx } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { accountInScope } from '../accounts/index.js';
import { app, muserApp } from './tables.js';

const entry = { appid: app.appid, appname: app.appname, scenecode: app.scenecode, iconurl: app.iconurl };

/** The apps of an account; the super account has them all. */
export async function appsOf(db: DbOrTx, musercode: string, issuper = false): Promise<AppEntry[]> {
  if (issuper) return db.select(entry).from(app).orderBy(asc(app.sort));
  return db.select(entry).from(muserApp).innerJoin(app, eq(app.appid, muserApp.appid)).where(eq(muserApp.musercode, musercode)).orderBy(asc(app.sort));
}

/** Of some accounts (null: every account), those whose app list holds an app. */
export async function accountsWithApp(db: DbOrTx, appid: string, musercodes: string[] | null): Promise<Set<string>> {
  const rows = await db
    .select({ musercode: muserApp.musercode })
    .from(muserApp)
    .where(and(eq(muserApp.appid, appid), musercodes ? inArray(muserApp.musercode, musercodes) : undefined));
  return new Set(rows.map((r) => r.musercode));
}

/** The population apps follow the contract at every start. */
export async function syncApps(db: DbOrTx) {
  for (const [sort, a] of populationApps.entries()) {
    await db
      .insert(app)
      .values({ appid: a.appid, appname: a.zh, appnameen: a.en, scenecode: a.appid, sort })
      .onConflictDoUpdate({ target: app.appid, set: { appname: a.zh, appnameen: a.en, sort } });
  }
}

/** Adds apps to an account's list (never removes any); callers check scope and what they may give. */
export async function addApps(db: DbOrTx, musercode: string, appids: string[]) {
  const unique = [...new Set(appids)];
  if (unique.length) await db.insert(muserApp).values(unique.map((appid) => ({ musercode, appid }))).onConflictDoNothing();
}

/** A caller may give an account only apps it has itself (permission denied, naming the others). */
export async function assertCanGiveApps(ctx: Ctx, appids: string[]) {
  const mine = new Set((await appsOf(ctx.db, ctx.me.musercode, ctx.me.issuper)).map((a) => a.appid));
  const beyond = appids.filter((a) => !mine.has(a));
  if (beyond.length) fail('permissionDenied', { zh: `不能分配自己没有的应用：${beyond.join(', ')}`, en: `You cannot give apps you do not have: ${beyond.join(', ')}` });
}

const localise = (ctx: Ctx, rows: AppEntry[]) =>
  ctx.lang === 'en-US' ? rows.map((r) => ({ ...r, appname: populationApps.find((p) => p.appid === r.appid)?.en ?? r.appname })) : rows;

export const appHandlers = {
  'as.m.app.getAppList': async ({ appid }, ctx) => {
    const rows = await ctx.db.select(entry).from(app).where(appid ? eq(app.appid, appid) : undefined).orderBy(asc(app.sort));
    return localise(ctx, rows);
  },

  'as.m.app.muser.getMUserAppList': async ({ musercode, appid }, ctx) => {
    await accountInScope(ctx, ctx.db, musercode);
    const issuper = musercode === ctx.me.musercode && ctx.me.issuper;
    const rows = await appsOf(ctx.db, musercode, issuper);
    return localise(ctx, appid ? rows.filter((r) => r.appid === appid) : rows);
  },

  'as.m.app.muser.insertMUserApp': async ({ musercode, appids }, ctx) => {
    const me = ctx.me;
    await accountInScope(ctx, ctx.db, musercode);
    if (musercode === me.musercode) fail('permissionDenied', { zh: '不能修改自己账号的应用', en: 'You cannot change the apps of your own account' });
    await assertCanGiveApps(ctx, appids);
    const unique = [...new Set(appids)];
    await ctx.db.transaction(async (tx) => {
      await tx.delete(muserApp).where(and(eq(muserApp.musercode, musercode)));
      if (unique.length) await tx.insert(muserApp).values(unique.map((appid) => ({ musercode, appid })));
    });
    await ctx.audit({ result: 'ok', detail: { target: musercode, appids: unique } });
    return null;
  },
} satisfies HandlerMap;

