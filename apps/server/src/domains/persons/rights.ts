/**
 * A person's rights over their record (PIPL Arts. 44–47, issue 30 §5): the export (record.ts),
 * erasure by anonymisation, and the institution's retention period with its job.
 *
 * What an erasure keeps, so statistics stay true: the row itself (its code, institution, app,
 * gender, birth YEAR — the age band —, dates and deletion), every report's choices, scores, bands
 * and warnings, class membership (grade statistics), and cases with their states and outcomes.
 * What it removes for good: name (it reads 已匿名 / Anonymised), phone, ID number, birth month and
 * day, student numbers (replaced by one made from the code), archive answers in words (choices and
 * numbers stay), free-text answers, consent signatures,
 * answers in progress, staff comments and notes, written reports, and consultation registrations'
 * name, phone and words. The audit log is append-only and keeps what it recorded.
 */
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict } from '../../http/errors.js';
import { enqueuePeriodic, type JobHandlers } from '../../kit/jobs/index.js';
import { ownerAccount } from '../accounts/index.js';
import { writeAudit } from '../audit/index.js';
import type { FileStorage } from '../../kit/storage/index.js';
import { storageOf } from '../files/index.js';
import { personRightsHooks } from './hooks.js';
import { ANONYMISED, assertNotAnonymised, personInScope } from './persons.js';
import { recordFile, recordSections } from './record.js';
import { cuser, personRetention } from './tables.js';

/** The name an anonymised person keeps (lists show it; personRow shows it in English for English readers). */
export const ANONYMISED_NAME = '已匿名';

/**
 * Anonymises one person and erases their words across domains, in one transaction. Answers false
 * when the person was already anonymised (the row's guard makes a second erasure, even a
 * concurrent one, do nothing).
 */
export async function anonymisePerson(db: Db, cusercode: string, by: string, now: Date, storage?: FileStorage): Promise<boolean> {
  return db.transaction(async (tx) => {
    const done = await tx
      .update(cuser)
      .set({
        realname: ANONYMISED_NAME,
        phonenumber: null,
        idcard: null,
        // Their keyed hashes too: a blind index still identifies (and would hold the ID number's uniqueness).
        phonehash: null,
        idcardhash: null,
        // The birth year stays (age bands); month and day go.
        birthdate: sql`case when ${cuser.birthdate} is null then null else make_date(extract(year from ${cuser.birthdate})::int, 1, 1) end`,
        // Choices and numbers stay; answers in words (text, dates, places) go.
        archive: sql`(select coalesce(jsonb_agg(a.v order by a.i), '[]'::jsonb) from jsonb_array_elements(${cuser.archive}) with ordinality as a(v, i) where jsonb_typeof(a.v -> 'value') <> 'string')`,
        anonymisedat: now,
        anonymisedby: by,
        updatedat: now,
      })
      .where(and(eq(cuser.cusercode, cusercode), isNull(cuser.anonymisedat)))
      .returning({ cusercode: cuser.cusercode });
    if (!done.length) return false;
    for (const erase of personRightsHooks().erasers) await erase(tx, cusercode, storage);
    return true;
  });
}

const byOf = (ctx: Ctx) => (ctx.me.userid ? `${ctx.me.musercode}/${ctx.me.userid}` : ctx.me.musercode);

// ---------- retention ----------

export const RETENTION_JOB = 'persons.retention';
const DAY = 86_400_000;
/** Persons one run anonymises at most; the next day's run goes on (a first run on a big institution). */
const RUN_MAX = 2000;

/** The instant `months` calendar months before `now`. */
function monthsBefore(now: Date, months: number): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

/** The daily run of the day `at` falls in (one job per day, whoever asks). */
export async function enqueueRetention(db: Db, at: Date, now: Date) {
  await enqueuePeriodic(db, RETENTION_JOB, DAY, at, now);
}

/**
 * Persons of an institution with no activity since `since`: not anonymised, registered and last
 * edited before it, no report, no case activity (and no open case) since. Deleted persons count:
 * their rows still hold their identity.
 */
async function inactivePersons(db: Db, musercode: string, since: Date): Promise<string[]> {
  const rows = await db
    .select({ cusercode: cuser.cusercode })
    .from(cuser)
    .where(
      and(
        eq(cuser.musercode, musercode),
        isNull(cuser.anonymisedat),
        lt(cuser.updatedat, since),
        lt(cuser.createdat, since),
        ...personRightsHooks().activeSince.map((active) => sql`not ${active(cuser.cusercode, since)}`),
      ),
    )
    .limit(RUN_MAX);
  return rows.map((r) => r.cusercode);
}

/** One run: each institution with a period anonymises its inactive persons, one audit row per institution. Answers how many. */
export async function runRetention(
  db: Db,
  now: Date,
  storage: FileStorage,
  audit: (musercode: string, detail: Record<string, unknown>) => Promise<void>,
): Promise<number> {
  const settings = await db
    .select()
    .from(personRetention)
    .where(sql`${personRetention.months} > 0`);
  let n = 0;
  for (const s of settings) {
    const since = monthsBefore(now, s.months);
    const done: string[] = [];
    for (const c of await inactivePersons(db, s.musercode, since))
      if (await anonymisePerson(db, c, 'retention', now, storage)) done.push(c);
    if (done.length) await audit(s.musercode, { months: s.months, since: since.toISOString(), count: done.length, cusercodes: done });
    n += done.length;
  }
  return n;
}

export const retentionJobs: JobHandlers = {
  [RETENTION_JOB]: {
    async run(_payload: { slot: number }, ctx) {
      await runRetention(ctx.db, ctx.now(), storageOf(ctx.config), (musercode, detail) =>
        writeAudit(ctx.db, {
          at: ctx.now(),
          musercode,
          userid: null,
          actor: 'system',
          action: RETENTION_JOB,
          result: 'ok',
          detail,
          ip: '',
          requestid: ctx.job.id,
        }),
      );
      // Tomorrow's run, while any institution keeps a period (setting one queues it again).
      const [on] = await ctx.db
        .select({ musercode: personRetention.musercode })
        .from(personRetention)
        .where(sql`${personRetention.months} > 0`)
        .limit(1);
      if (on) await enqueueRetention(ctx.db, new Date(ctx.now().getTime() + DAY), ctx.now());
    },
  },
};

export const rightsHandlers = {
  'as.m.cuser.exportPersonRecord': async ({ cusercode, format }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const file = await recordFile(ctx, person, format);
    // One row per export, the person its object; the values themselves are not copied here.
    await ctx.audit({
      result: 'ok',
      detail: { cusercode, target: person.musercode, format, sections: recordSections().map((s) => s.key) },
    });
    return file;
  },

  'as.m.cuser.anonymiseCUser': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    assertNotAnonymised(person);
    if (!(await anonymisePerson(ctx.db, cusercode, byOf(ctx), ctx.now(), storageOf(ctx.config)))) conflict(ANONYMISED);
    await ctx.audit({ result: 'ok', detail: { cusercode, target: person.musercode, appid: person.appid } });
    return null;
  },

  'as.m.cuser.getRetention': async ({ musercode }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const [row] = await ctx.db.select().from(personRetention).where(eq(personRetention.musercode, owner.musercode));
    return { musercode: owner.musercode, months: row?.months ?? 0 };
  },

  'as.m.cuser.updateRetention': async ({ musercode, months }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const [old] = await ctx.db.select().from(personRetention).where(eq(personRetention.musercode, owner.musercode));
    await ctx.db
      .insert(personRetention)
      .values({ musercode: owner.musercode, months, updatedat: ctx.now() })
      .onConflictDoUpdate({ target: personRetention.musercode, set: { months, updatedat: ctx.now() } });
    // The daily run from tomorrow on (today's may have run already while the period was off).
    if (months > 0) await enqueueRetention(ctx.db, new Date(ctx.now().getTime() + DAY), ctx.now());
    await ctx.audit({ result: 'ok', detail: { target: owner.musercode, old: { months: old?.months ?? 0 }, new: { months } } });
    return null;
  },
} satisfies HandlerMap;
