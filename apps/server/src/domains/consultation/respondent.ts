import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { AppError, notFound } from '../../http/errors.js';
import { accountNames } from '../accounts/index.js';
import { limitedEntry, resolveEntryToken } from '../assessments/index.js';
import { loadCurrentDefinitions, registrationFormsOf } from '../scales/index.js';
import { formDetail, noSuchForm, usableForm } from './forms.js';
import { storeRegistration } from './store.js';
import { registration } from './tables.js';

/**
 * A person requests a consultation through the institution's QR entry (as.c.registration.*, no
 * token, rate-limited per address like the code entry).
 */

/** Successful QR registrations one address may send per hour (a waiting room's shared Wi-Fi fits; a flood does not). */
export const SUBMISSIONS_PER_ADDRESS_PER_HOUR = 20;

async function entryOf(db: DbOrTx, entrytoken: string) {
  const entry = await resolveEntryToken(db, entrytoken);
  return (
    entry ??
    notFound({
      zh: '二维码已失效，请向机构索取新的二维码',
      en: 'This QR code is no longer valid; please ask the institution for a new one',
    })
  );
}

/** Key space of the per-address lock of QR registrations (pg_advisory_xact_lock(key, hashtext(ip))). */
const SUBMISSION_LOCK = 27043;

/**
 * Refuses a flood of registrations from one address (successful ones; failures count in
 * limitedEntry). Called in the transaction that stores the registration: the lock on the address
 * makes parallel submissions count one after another, so the cap holds (issue 27 item 14).
 */
async function capSubmissions(tx: DbOrTx, ctx: Ctx) {
  await tx.execute(sql`select pg_advisory_xact_lock(${SUBMISSION_LOCK}, hashtext(${ctx.ip}))`);
  const since = new Date(ctx.now().getTime() - 3600_000);
  const [row] = await tx
    .select({ n: count() })
    .from(registration)
    .where(and(eq(registration.ip, ctx.ip), gte(registration.createdat, since)));
  if (Number(row?.n ?? 0) >= SUBMISSIONS_PER_ADDRESS_PER_HOUR)
    throw new AppError(
      'rateLimited',
      {
        zh: '提交次数过多，请稍后再试或直接致电机构',
        en: 'Too many requests from this address; please try again later or call the institution',
      },
      429,
    );
}

export const respondentRegistrationHandlers = {
  'as.c.registration.getForm': async ({ entrytoken }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx.db, entrytoken);
      const [first] = await registrationFormsOf(ctx.db, entry.musercode, ctx.lang);
      const def = first ? (await loadCurrentDefinitions(ctx.db, [first.formcode])).get(first.formcode) : undefined;
      return {
        insname: (await accountNames(ctx.db, [entry.musercode])).get(entry.musercode) ?? '',
        title: entry.title,
        hotline: entry.hotline,
        form: def ? formDetail(def) : null,
      };
    }),

  'as.c.registration.submit': async ({ entrytoken, formcode, realname, phone, answers }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx.db, entrytoken);
      // Only the form the entry offers (its first usable one), so a respondent cannot pick another.
      const [first] = await registrationFormsOf(ctx.db, entry.musercode, ctx.lang);
      if (first?.formcode !== formcode) return noSuchForm();
      const def = await usableForm(ctx.db, entry.musercode, formcode, ctx.lang);
      const regid = await ctx.db.transaction(async (tx) => {
        await capSubmissions(tx, ctx);
        return storeRegistration(tx, def, {
          musercode: entry.musercode,
          realname,
          phone,
          answers,
          source: 'respondent',
          ip: ctx.ip,
          now: ctx.now(),
        });
      });
      await ctx.audit({ musercode: entry.musercode, result: 'ok', detail: { regid, formcode } });
      return { regid, hotline: entry.hotline };
    }),
} satisfies HandlerMap;
