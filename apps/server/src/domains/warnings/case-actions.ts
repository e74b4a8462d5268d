import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { CaseState, WarningKind, WarningLevel } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { notFound } from '../../http/errors.js';
import { iso, paged } from '../../kit/index.js';
import { ownedBy } from '../accounts/index.js';
import { codeUrl, giveOne } from '../assessments/index.js';
import { assertNotAnonymised, personInScope } from '../persons/index.js';
import { staffBriefs } from '../system/index.js';
import {
  actorOf,
  caseInScope,
  caseOrder,
  caseRows,
  caseWhere,
  checkCaseFilters,
  formNames,
  recordEvent,
  warningRowOf,
  type CaseRecord,
} from './cases.js';
import { wrongState } from './case-state.js';
import { publishWarnEvent } from './events.js';
import { followRows } from './follow-ups.js';
import { addWarning } from './raise.js';
import { caseEvent, followUp, warnCase, warning } from './tables.js';
import { reasonText } from './triggers.js';

/**
 * One case as as.m.warning.getCase answers it: the case, its warnings (reasons in the reader's
 * language), its events and its follow-ups. The caller has found the case in scope and audits.
 */
export async function caseDetail(ctx: Ctx, c: CaseRecord) {
  const caseid = c.caseid;
  const [row] = await caseRows(ctx, ctx.db, [c]);
  const warnings = await ctx.db
    .select()
    .from(warning)
    .where(eq(warning.caseid, caseid))
    .orderBy(desc(warning.createdat), desc(warning.warningid));
  const names = await formNames(
    ctx,
    ctx.db,
    warnings.map((w) => w.formcode),
  );
  const reasons = new Map(warnings.map((w) => [w.warningid, reasonText(w.kind as WarningKind, w.params, ctx.lang === 'en-US')]));
  const events = await ctx.db.select().from(caseEvent).where(eq(caseEvent.caseid, caseid)).orderBy(asc(caseEvent.at), asc(caseEvent.id));
  const follows = await ctx.db
    .select()
    .from(followUp)
    .where(eq(followUp.caseid, caseid))
    .orderBy(desc(followUp.followdate), desc(followUp.createdat));
  // A follow-up event stores the record's id and an assignment the staff user's id first: the
  // reader sees what was done and who was given the case, not ids.
  const followed = new Map(follows.map((f) => [f.followid, f.content]));
  const assigned = await staffBriefs(
    ctx.db,
    events.filter((e) => e.what === 'assign').map((e) => e.note.split(' ')[0]!),
  );
  const noteOf = (e: (typeof events)[number]) => {
    if (e.what === 'warning') return reasons.get(e.note) ?? '';
    if (e.what === 'followup') return followed.get(e.note) ?? '';
    if (e.what === 'assign') {
      const [userid = '', ...rest] = e.note.split(' ');
      const who = assigned.get(userid);
      return [who ? who.realname || who.sysusername : userid, ...rest].join(' ').trim();
    }
    return e.note;
  };
  return {
    case: row!,
    warnings: warnings.map((w) => warningRowOf(ctx, w, names)),
    events: events.map((e) => ({
      at: iso(e.at),
      by: e.by,
      byname: e.byname,
      from: e.fromstate as CaseState | '',
      to: e.tostate as CaseState,
      what: e.what as 'state',
      // A joined warning's event names it; the reader sees its reason in their language.
      note: noteOf(e),
    })),
    followups: await followRows(ctx, ctx.db, follows),
  };
}

/** Moves a case to another state, with its event and live event, in one transaction. */
async function moveCase(
  ctx: Ctx,
  caseid: string,
  allowed: CaseState[],
  to: CaseState,
  set: (c: CaseRecord, now: Date) => Partial<typeof warnCase.$inferInsert>,
  note = '',
  action: string,
) {
  await ctx.db.transaction(async (tx) => {
    const c = await caseInScope(ctx, tx, caseid, true);
    if (!allowed.includes(c.state as CaseState)) wrongState(c.state);
    const now = ctx.now();
    const who = await actorOf(ctx, tx);
    await tx
      .update(warnCase)
      .set({ state: to, ...set(c, now) })
      .where(eq(warnCase.caseid, caseid));
    await recordEvent(tx, { caseid, at: now, ...who, from: c.state, to, what: 'state', note });
    await publishWarnEvent(tx, { kind: 'changed', caseid, level: c.level as WarningLevel, musercode: c.musercode });
  });
  await ctx.audit({ action, result: 'ok', detail: { caseid, to } });
  return null;
}

/** Warning cases: the list and one case, the steps of their state, assigning, flagging a person, rescreening. */
export const caseHandlers = {
  'as.m.warning.getCasePageList': async ({ page, pageSize, ...filters }, ctx) => {
    await checkCaseFilters(ctx, filters);
    const where = caseWhere(ctx, filters);
    const { total, rows } = await paged(ctx.db, ctx.db.select().from(warnCase).where(where).$dynamic(), caseOrder, { page, pageSize });
    const scope = and(ownedBy(ctx, warnCase.musercode, filters.musercode || undefined), ne(warnCase.state, 'closed'));
    const [counts] = await ctx.db
      .select({
        critical: sql<number>`count(*) filter (where ${warnCase.level} = 'critical')::int`,
        attention: sql<number>`count(*) filter (where ${warnCase.level} = 'attention')::int`,
        open: sql<number>`count(*) filter (where ${warnCase.state} = 'open')::int`,
      })
      .from(warnCase)
      .where(scope);
    return {
      total,
      rows: await caseRows(ctx, ctx.db, rows),
      counts: { critical: Number(counts?.critical ?? 0), attention: Number(counts?.attention ?? 0), open: Number(counts?.open ?? 0) },
    };
  },

  'as.m.warning.getCase': async ({ caseid }, ctx) => {
    const c = await caseInScope(ctx, ctx.db, caseid);
    const detail = await caseDetail(ctx, c);
    await ctx.audit({ result: 'ok', detail: { caseid, cusercode: c.cusercode } });
    return detail;
  },

  'as.m.warning.acknowledgeCase': async ({ caseid, note }, ctx) =>
    moveCase(
      ctx,
      caseid,
      ['open'],
      'acknowledged',
      (_c, now) => ({ acknowledgedat: now, escalatedue: null }),
      note,
      'as.m.warning.acknowledgeCase',
    ),

  'as.m.warning.startFollowUp': async ({ caseid, note }, ctx) =>
    moveCase(
      ctx,
      caseid,
      ['open', 'acknowledged'],
      'followup',
      (c, now) => ({ acknowledgedat: c.acknowledgedat ?? now, escalatedue: null }),
      note,
      'as.m.warning.startFollowUp',
    ),

  'as.m.warning.closeCase': async ({ caseid, outcome, note }, ctx) =>
    moveCase(
      ctx,
      caseid,
      ['open', 'acknowledged', 'followup'],
      'closed',
      (c, now) => ({ outcome, note, closedat: now, escalatedue: null, acknowledgedat: c.acknowledgedat ?? now }),
      note,
      'as.m.warning.closeCase',
    ),

  'as.m.warning.assignCase': async ({ caseid, userid, note }, ctx) => {
    await ctx.db.transaction(async (tx) => {
      const c = await caseInScope(ctx, tx, caseid, true);
      if (c.state === 'closed') wrongState(c.state);
      if (userid) {
        const s = (await staffBriefs(tx, [userid])).get(userid);
        if (!s || s.musercode !== c.musercode || !s.enabled)
          notFound({ zh: '该机构没有这个工作人员', en: 'No such staff user in this institution' });
      }
      const now = ctx.now();
      await tx.update(warnCase).set({ assignee: userid }).where(eq(warnCase.caseid, caseid));
      await recordEvent(tx, {
        caseid,
        at: now,
        ...(await actorOf(ctx, tx)),
        from: c.state,
        to: c.state as CaseState,
        what: 'assign',
        note: note ? `${userid} ${note}` : userid,
      });
      await publishWarnEvent(tx, { kind: 'changed', caseid, level: c.level as WarningLevel, musercode: c.musercode });
    });
    await ctx.audit({ result: 'ok', detail: { caseid, userid } });
    return null;
  },

  'as.m.warning.flagPerson': async ({ cusercode, level, note }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    assertNotAnonymised(person);
    const raised = await ctx.db.transaction(async (tx) => {
      const who = await actorOf(ctx, tx);
      return addWarning(
        tx,
        { musercode: person.musercode, cusercode, kind: 'manual', level, params: { note }, by: who.by, byname: who.byname },
        ctx.now(),
      );
    });
    await ctx.audit({ result: 'ok', detail: { cusercode, level, ...raised } });
    return { warningid: raised!.warningid, caseid: raised!.caseid };
  },

  'as.m.warning.rescreenCase': async ({ caseid, plancode, stagecode }, ctx) => {
    const c = await caseInScope(ctx, ctx.db, caseid);
    const person = await personInScope(ctx, ctx.db, c.cusercode);
    const assesscode = await ctx.db.transaction(async (tx) => {
      const code = await giveOne(ctx, tx, person, plancode, stagecode);
      const locked = await caseInScope(ctx, tx, caseid, true);
      await recordEvent(tx, {
        caseid,
        at: ctx.now(),
        ...(await actorOf(ctx, tx)),
        from: locked.state,
        to: locked.state as CaseState,
        what: 'rescreen',
        note: code,
      });
      return code;
    });
    await ctx.audit({
      result: 'ok',
      detail: { caseid, plancode, stagecode: stagecode ?? '', assesscode },
    });
    return { assesscode, url: codeUrl(assesscode) };
  },
} satisfies HandlerMap;
