import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { MUserClient } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid, notFound } from '../../http/errors.js';
import { iso, preparedOnce, referenceRead } from '../../kit/index.js';
import { accountInScope, type AccountRow } from './owner.js';
import { accountHooks } from './hooks.js';
import { muser, muserEntry } from './tables.js';

/**
 * The respondent entry of an institution: its settings and the link its QR code carries,
 * `<public base>/r/<token>`. The token is 256 crypto-random bits (unguessable); resetting it
 * replaces it in place, so the old link resolves to nothing from that statement on.
 */

/** QR code sizes of SPEC §9: the large dialog and the account dialog. */
export const QR_SIZES = [400, 200] as const;

export const newEntryToken = () => randomBytes(32).toString('base64url');
export const entryLink = (base: string, token: string) => `${base}/r/${token}`;

/** Only institutions (001–004) have respondents; a provider has no entry. */
export const isInstitution = (musertype: string) => musertype !== '005';

type EntryRow = typeof muserEntry.$inferSelect;

/**
 * For the respondent channel (issue 11): the institution a link token opens and its settings,
 * or null when no entry has the token (never had, or reset since) or its account is disabled.
 */
export async function resolveEntryToken(
  db: DbOrTx,
  token: string,
): Promise<{ musercode: string; insname: string; entry: EntryRow } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await db
    .select({ entry: muserEntry, insname: muser.insname, enabled: muser.enabled })
    .from(muserEntry)
    .innerJoin(muser, eq(muser.musercode, muserEntry.musercode))
    .where(eq(muserEntry.token, token));
  if (!row || row.enabled !== 1) return null;
  return { musercode: row.entry.musercode, insname: row.insname, entry: row.entry };
}

/** The entry of an institution, made with default settings (title: its name) when it has none yet. */
export async function ensureEntry(db: DbOrTx, base: string, account: { musercode: string; insname: string }, now: Date): Promise<EntryRow> {
  const [known] = await db.select().from(muserEntry).where(eq(muserEntry.musercode, account.musercode));
  if (known) return known;
  const [made] = await db
    .insert(muserEntry)
    .values({ musercode: account.musercode, token: newEntryToken(), title: account.insname, createdat: now, updatedat: now })
    .onConflictDoNothing()
    .returning();
  // Two first uses at once: one insert wins, and only the winner writes the link to the account.
  if (made) {
    await db
      .update(muser)
      .set({ qrcodeurl: entryLink(base, made.token) })
      .where(eq(muser.musercode, account.musercode));
    return made;
  }
  const [row] = await db.select().from(muserEntry).where(eq(muserEntry.musercode, account.musercode));
  return row!;
}

/** The QR code PNG of a link, `size` pixels square. */
export const qrPng = (link: string, size: number): Promise<Buffer> =>
  QRCode.toBuffer(link, { type: 'png', width: size, margin: 2, errorCorrectionLevel: 'M' });

/** An institution in scope that may have an entry (a provider has none). */
export async function institutionInScope(ctx: Ctx, musercode: string): Promise<AccountRow> {
  const account = await accountInScope(ctx, ctx.db, musercode);
  if (!isInstitution(account.musertype)) {
    invalid({ zh: '服务商账号没有受测者入口，请选择机构', en: 'A provider account has no respondent entry: choose an institution' });
  }
  return account;
}

/** Offered apps must be the institution's own; offered stages its own (or given to it) of those apps. */
async function checkOffer(db: DbOrTx, account: AccountRow, appids: string[], stagecodes: string[]) {
  const { offer } = accountHooks();
  const stages = new Map((await offer.stagesOf(db, account.musercode)).map((s) => [s.stagecode, s.appid]));
  const foreign = stagecodes.filter((s) => !stages.has(s));
  if (foreign.length) notFound({ zh: `阶段不存在：${foreign.join(', ')}`, en: `No such stage: ${foreign.join(', ')}` });
  const apps = new Set((await offer.appsOf(db, account.musercode, account.issuper)).map((a) => a.appid));
  const beyond = appids.filter((a) => !apps.has(a));
  if (beyond.length) {
    invalid({ zh: `该机构没有这些应用：${beyond.join(', ')}`, en: `The institution does not have these apps: ${beyond.join(', ')}` });
  }
  const outside = stagecodes.filter((s) => !appids.includes(stages.get(s)!));
  if (outside.length) {
    invalid({ zh: `阶段不属于所选应用：${outside.join(', ')}`, en: `Stages outside the chosen apps: ${outside.join(', ')}` });
  }
}

function toClient(row: EntryRow, base: string): MUserClient {
  return {
    musercode: row.musercode,
    title: row.title,
    logourl: row.logourl,
    welcome: row.welcome,
    consent: row.consent,
    appids: row.appids,
    stagecodes: row.stagecodes,
    showresult: row.showresult,
    hotline: row.hotline,
    qrcodeurl: entryLink(base, row.token),
    updatedat: iso(row.updatedat),
  };
}

export const entryHandlers = {
  'as.m.user.getMUserClient': async ({ musercode }, ctx) => {
    await institutionInScope(ctx, musercode);
    const [row] = await ctx.db.select().from(muserEntry).where(eq(muserEntry.musercode, musercode));
    return row ? toClient(row, ctx.config.publicBaseUrl) : null;
  },

  /** Sets every setting (creating the entry and its link when there is none; an existing link stays). */
  'as.m.user.createMUserClient': async ({ musercode, ...settings }, ctx) => {
    const account = await institutionInScope(ctx, musercode);
    await checkOffer(ctx.db, account, settings.appids, settings.stagecodes);
    const now = ctx.now();
    const base = ctx.config.publicBaseUrl;
    const row = await ctx.db.transaction(async (tx) => {
      await ensureEntry(tx, base, account, now);
      const [changed] = await tx
        .update(muserEntry)
        .set({ ...settings, updatedat: now })
        .where(eq(muserEntry.musercode, musercode))
        .returning();
      return changed!;
    });
    await ctx.audit({ result: 'ok', detail: { target: musercode } });
    return { qrcodeurl: entryLink(base, row.token) };
  },

  'as.m.user.updateMUserClient': async ({ musercode, ...changes }, ctx) => {
    const account = await institutionInScope(ctx, musercode);
    const now = ctx.now();
    const base = ctx.config.publicBaseUrl;
    await ctx.db.transaction(async (tx) => {
      const current = await ensureEntry(tx, base, account, now);
      await checkOffer(tx, account, changes.appids ?? current.appids, changes.stagecodes ?? current.stagecodes);
      await tx
        .update(muserEntry)
        .set({ ...changes, updatedat: now })
        .where(eq(muserEntry.musercode, musercode));
    });
    await ctx.audit({ result: 'ok', detail: { target: musercode, fields: Object.keys(changes) } });
    return null;
  },

  'as.m.user.resetQrCode': async ({ musercode }, ctx) => {
    const account = await institutionInScope(ctx, musercode);
    const now = ctx.now();
    const base = ctx.config.publicBaseUrl;
    const token = newEntryToken();
    await ctx.db.transaction(async (tx) => {
      await ensureEntry(tx, base, account, now);
      await tx.update(muserEntry).set({ token, updatedat: now }).where(eq(muserEntry.musercode, musercode));
      await tx
        .update(muser)
        .set({ qrcodeurl: entryLink(base, token), updatedat: now })
        .where(eq(muser.musercode, musercode));
    });
    await ctx.audit({ result: 'ok', detail: { target: musercode } });
    return { qrcodeurl: entryLink(base, token) };
  },

  'as.m.user.downloadQrCode': async ({ musercode, size }, ctx) => {
    const account = await institutionInScope(ctx, musercode);
    const base = ctx.config.publicBaseUrl;
    const row = await ensureEntry(ctx.db, base, account, ctx.now());
    const body = await qrPng(entryLink(base, row.token), size);
    return { filename: `${account.insname}-${size}.png`, contentType: 'image/png', body };
  },
} satisfies HandlerMap;

/** For the respondent channel (issue 11): an institution's entry settings, or null when it has none. */
export const entryOfAccount = referenceRead(
  'entry_of_account',
  (musercode: string) => musercode,
  async (db, musercode: string): Promise<EntryRow | null> => {
    const [row] = await entryRead(db).execute({ musercode });
    return row ?? null;
  },
);
/** Prepared: every respondent's sign-in shows its institution's entry settings. */
const entryRead = preparedOnce('entry_of_account', (db, name) => db.select().from(muserEntry).where(eq(muserEntry.musercode, sql.placeholder('musercode'))).prepare(name));
