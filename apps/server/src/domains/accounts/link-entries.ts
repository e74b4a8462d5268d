import { createHash } from 'node:crypto';
import { and, count, desc, eq, gt, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { LinkEntryHour } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { AppError, conflict } from '../../http/errors.js';
import { iso } from '../../kit/index.js';
import { accountHooks } from './hooks.js';
import { institutionInScope } from './entry.js';
import { linkEntry } from './tables.js';

/**
 * Persons registered through an institution's QR link (issue 27 item 4). Anyone with the link may
 * register, so registrations are capped per client address and per link each hour; every one is
 * recorded (link_entry) so that staff see them per hour and can undo a burst: its persons, their
 * cases and their results, and nothing else.
 */

const HOUR = 3_600_000;
const PART = 5000;

/** Key spaces of pg_advisory_xact_lock(key, hashtext(...)) for the two caps (the code-entry limit uses 3). */
const LINK_LOCK = 27041;
const ADDRESS_LOCK = 27042;

const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32);
/** A link is known by a hash of its token: the token opens the link and is not kept twice. */
const linkHash = (token: string) => digest(`link:${token}`);
/** An address is counted, never listed: kept as a hash (a pseudonym: IPv4 has few values). */
const addressHash = (ip: string) => digest(`address:${ip}`);

const tooManyFromAddress = () =>
  new AppError(
    'rateLimited',
    {
      zh: '来自此网络的扫码登记次数过多，请一小时后再试，或请机构工作人员协助',
      en: 'Too many registrations from this address through QR codes; please try again in an hour, or ask the institution’s staff',
    },
    429,
  );
const tooManyOnLink = () =>
  new AppError(
    'rateLimited',
    {
      zh: '该二维码本小时的登记人数已达上限，请稍后再试，或请机构工作人员协助',
      en: 'This QR code has taken all the registrations it may this hour; please try again later, or ask the institution’s staff',
    },
    429,
  );

/**
 * Admits one more person through a link, in the transaction that registers them, or refuses when
 * the link or the address has had its hour's share. Counting and recording happen under
 * transaction locks on the link and the address, taken in that order by every entry, so parallel
 * entries are counted one after another; `record` stores the entry once the person exists.
 */
export async function admitLinkEntry(tx: DbOrTx, ctx: Ctx, e: { entrytoken: string; musercode: string }) {
  const linkhash = linkHash(e.entrytoken);
  const addrhash = addressHash(ctx.ip);
  await tx.execute(sql`select pg_advisory_xact_lock(${LINK_LOCK}, hashtext(${linkhash}))`);
  await tx.execute(sql`select pg_advisory_xact_lock(${ADDRESS_LOCK}, hashtext(${addrhash}))`);
  const since = new Date(ctx.now().getTime() - HOUR);
  const [onLink] = await tx
    .select({ n: count() })
    .from(linkEntry)
    .where(and(eq(linkEntry.linkhash, linkhash), gt(linkEntry.at, since)));
  if (Number(onLink?.n ?? 0) >= ctx.config.linkEntriesPerLinkPerHour) throw tooManyOnLink();
  const [fromAddress] = await tx
    .select({ n: count() })
    .from(linkEntry)
    .where(and(eq(linkEntry.addrhash, addrhash), gt(linkEntry.at, since)));
  if (Number(fromAddress?.n ?? 0) >= ctx.config.linkEntriesPerAddressPerHour) throw tooManyFromAddress();
  return {
    record: async (cusercode: string) => {
      await tx.insert(linkEntry).values({ cusercode, musercode: e.musercode, linkhash, addrhash, at: ctx.now() });
    },
  };
}

/** The persons of an institution's entries in [startat, endat) not undone yet. */
async function entriesIn(db: DbOrTx, w: { musercode: string; startat: string; endat: string }, lock = false): Promise<string[]> {
  const query = db
    .select({ cusercode: linkEntry.cusercode })
    .from(linkEntry)
    .where(
      and(
        eq(linkEntry.musercode, w.musercode),
        gte(linkEntry.at, new Date(w.startat)),
        lt(linkEntry.at, new Date(w.endat)),
        isNull(linkEntry.undoneat),
      ),
    );
  const rows = lock ? await query.for('update') : await query;
  return rows.map((r) => r.cusercode);
}

/** Persons of the list that have a warning case (open or closed). */
async function withCases(db: DbOrTx, cusercodes: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < cusercodes.length; i += PART)
    for (const code of (await accountHooks().linkUndo.latestCases(db, cusercodes.slice(i, i + PART))).keys()) out.add(code);
  return out;
}

const whoOf = (ctx: Ctx) => (ctx.me.userid ? `${ctx.me.musercode}/${ctx.me.userid}` : ctx.me.musercode);

export const linkEntryHandlers = {
  'as.m.user.getLinkEntryHours': async ({ musercode, days }, ctx) => {
    await institutionInScope(ctx, musercode);
    const since = new Date(ctx.now().getTime() - days * 24 * HOUR);
    const rows = await ctx.db
      .select({ cusercode: linkEntry.cusercode, at: linkEntry.at, undoneat: linkEntry.undoneat })
      .from(linkEntry)
      .where(and(eq(linkEntry.musercode, musercode), gt(linkEntry.at, since)))
      .orderBy(desc(linkEntry.at));
    const cased = await withCases(
      ctx.db,
      rows.filter((r) => !r.undoneat).map((r) => r.cusercode),
    );
    const hours = new Map<number, LinkEntryHour>();
    for (const r of rows) {
      const start = Math.floor(r.at.getTime() / HOUR) * HOUR;
      const h = hours.get(start) ?? { hourstart: iso(new Date(start)), count: 0, warnings: 0, undone: 0 };
      h.count++;
      if (r.undoneat) h.undone++;
      else if (cased.has(r.cusercode)) h.warnings++;
      hours.set(start, h);
    }
    // Rows came newest first, so the map's order is too.
    return [...hours.values()];
  },

  'as.m.user.previewUndoLinkEntries': async (w, ctx) => {
    await institutionInScope(ctx, w.musercode);
    const codes = await entriesIn(ctx.db, w);
    const { linkUndo } = accountHooks();
    return { persons: codes.length, cases: await linkUndo.caseCount(ctx.db, codes), reports: await linkUndo.resultCount(ctx.db, codes) };
  },

  'as.m.user.undoLinkEntries': async ({ count: confirmed, ...w }, ctx) => {
    await institutionInScope(ctx, w.musercode);
    const now = ctx.now();
    const by = whoOf(ctx);
    const done = await ctx.db.transaction(async (tx) => {
      // Locked: two undos at once remove the burst once; the second finds nothing left.
      const codes = await entriesIn(tx, w, true);
      if (codes.length !== confirmed)
        conflict({
          zh: `该时段现有 ${codes.length} 人，与确认的 ${confirmed} 人不符，请重新查看后再撤销`,
          en: `This window now holds ${codes.length} persons, not the ${confirmed} confirmed; please look again before undoing`,
        });
      // Each domain removes its own rows: cases first (their warnings name the reports), then results, then persons.
      const { linkUndo } = accountHooks();
      const cases = await linkUndo.removeCases(tx, codes);
      const reports = await linkUndo.removeResults(tx, codes);
      await linkUndo.removePersons(tx, codes, by, now);
      for (let i = 0; i < codes.length; i += PART)
        await tx
          .update(linkEntry)
          .set({ undoneat: now, undoneby: by })
          .where(inArray(linkEntry.cusercode, codes.slice(i, i + PART)));
      return { codes, result: { persons: codes.length, cases, reports } };
    });
    await ctx.audit({
      result: 'ok',
      detail: { target: w.musercode, startat: w.startat, endat: w.endat, ...done.result, cusercodes: done.codes },
    });
    return done.result;
  },
} satisfies HandlerMap;
