import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { CaseState, FollowUpRow, WarningLevel } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { iso, newId, paged, todayIn } from '../../kit/index.js';
import { ownedBy } from '../accounts/index.js';
import { assertPersonNotAnonymised, personBriefs } from '../persons/index.js';
import { actorOf, caseInScope, isOverdue, recordEvent } from './cases.js';
import { wrongState } from './case-state.js';
import { publishWarnEvent } from './events.js';
import { followUp, warnCase } from './tables.js';

/** Follow-up records as the console shows them (a case's, a list's, the intervention record's). */
export async function followRows(ctx: Ctx, db: DbOrTx, rows: (typeof followUp.$inferSelect)[]): Promise<FollowUpRow[]> {
  if (!rows.length) return [];
  const cases = new Map(
    (
      await db
        .select()
        .from(warnCase)
        .where(inArray(warnCase.caseid, [...new Set(rows.map((r) => r.caseid))]))
    ).map((c) => [c.caseid, c]),
  );
  const persons = await personBriefs(
    db,
    rows.map((r) => r.cusercode),
    ctx.lang,
  );
  const today = todayIn(ctx.now());
  return rows.map((r) => {
    const c = cases.get(r.caseid);
    return {
      followid: r.followid,
      caseid: r.caseid,
      musercode: r.musercode,
      cusercode: r.cusercode,
      realname: persons.get(r.cusercode)?.realname ?? '',
      followdate: r.followdate,
      way: r.way as FollowUpRow['way'],
      by: r.by,
      byname: r.byname,
      content: r.content,
      risk: r.risk,
      nextdate: r.nextdate,
      overdue: !!c && c.lastfollowid === r.followid && isOverdue(c, today),
      createdat: iso(r.createdat),
    };
  });
}

/** The latest follow-up of a case not closed whose next date has passed. */
const overdueFollowUp = (today: string) =>
  sql`exists (select 1 from ${warnCase} where ${warnCase.caseid} = ${followUp.caseid} and ${warnCase.lastfollowid} = ${followUp.followid} and ${warnCase.state} <> 'closed' and ${warnCase.nextdate} <> '' and ${warnCase.nextdate} < ${today})`;

/** The follow-ups of cases: recording one, and the list (overdue first). */
export const followUpHandlers = {
  'as.m.warning.insertFollowUp': async ({ caseid, followdate, way, content, risk, nextdate }, ctx) => {
    const followid = newId('WF');
    await ctx.db.transaction(async (tx) => {
      const c = await caseInScope(ctx, tx, caseid, true);
      if (c.state === 'closed') wrongState(c.state);
      // The case of an anonymised person may still be closed, but nothing new is written about them.
      await assertPersonNotAnonymised(tx, c.cusercode);
      const now = ctx.now();
      const who = await actorOf(ctx, tx);
      await tx.insert(followUp).values({
        followid,
        caseid,
        musercode: c.musercode,
        cusercode: c.cusercode,
        followdate,
        way,
        by: who.by,
        byname: who.byname,
        content,
        risk,
        nextdate: nextdate ?? '',
        createdat: now,
      });
      const to: CaseState = 'followup';
      await tx
        .update(warnCase)
        .set({ state: to, nextdate: nextdate ?? '', lastfollowid: followid, escalatedue: null, acknowledgedat: c.acknowledgedat ?? now })
        .where(eq(warnCase.caseid, caseid));
      await recordEvent(tx, { caseid, at: now, ...who, from: c.state, to, what: 'followup', note: followid });
      await publishWarnEvent(tx, { kind: 'changed', caseid, level: c.level as WarningLevel, musercode: c.musercode });
    });
    await ctx.audit({ result: 'ok', detail: { caseid, followid } });
    return { followid };
  },

  'as.m.warning.getFollowUpPageList': async ({ caseid, musercode, overdue, startdate, enddate, page, pageSize }, ctx) => {
    if (caseid) await caseInScope(ctx, ctx.db, caseid);
    const where = and(
      ownedBy(ctx, followUp.musercode, musercode || undefined),
      caseid ? eq(followUp.caseid, caseid) : undefined,
      startdate ? gte(followUp.followdate, startdate) : undefined,
      enddate ? lte(followUp.followdate, enddate) : undefined,
      overdue ? overdueFollowUp(todayIn(ctx.now())) : undefined,
    );
    const order = [
      sql`case when ${overdueFollowUp(todayIn(ctx.now()))} then 0 else 1 end`,
      desc(followUp.followdate),
      desc(followUp.createdat),
      asc(followUp.followid),
    ];
    const { total, rows } = await paged(ctx.db, ctx.db.select().from(followUp).where(where).$dynamic(), order, { page, pageSize });
    return { total, rows: await followRows(ctx, ctx.db, rows) };
  },
} satisfies HandlerMap;
