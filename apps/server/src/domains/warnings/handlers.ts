import { and, asc, count, desc, eq, gte, inArray, lte, ne, notExists, sql, type SQL } from 'drizzle-orm';
import { CaseStateName, enumLabel, WarningKindName, WarningLevelName, type CaseState, type FollowUpRow, type WarningKind, type WarningLevel } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, notFound } from '../../http/errors.js';
import { iso, newId, offsetOf, ownedBy, ownerAccount, paged, todayIn } from '../../kit/index.js';
import { codeUrl, giveOne } from '../assessments/codes.js';
import { personBriefs, personInScope } from '../persons/persons.js';
import { streamXlsx, XLSX_TYPE } from '../../kit/xlsx.js';
import { staffBriefs } from '../system/staff.js';
import {
  actorOf,
  caseInScope,
  caseOrder,
  caseRows,
  caseWhere,
  checkCaseFilters,
  formNames,
  isOverdue,
  recordEvent,
  warningRowOf,
  type CaseRecord,
} from './cases.js';
import { publishWarnEvent } from './events.js';
import { addWarning } from './raise.js';
import { replaceSettings, settingsOf } from './settings.js';
import { caseEvent, followUp, warnCase, warning, warnNotice, warnNoticeRead } from './tables.js';
import { reasonText } from './triggers.js';

const wrongState = (state: string) =>
  conflict({
    zh: `个案当前状态（${stateText(state, false)}）不允许此操作`,
    en: `The case is ${stateText(state, true).toLowerCase()}; this step does not apply`,
  });
/** A case state as the console names it. */
const stateText = (s: string, en: boolean) => enumLabel(CaseStateName, s, en ? 'en-US' : 'zh-CN');

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

// ---------- notifications ----------

/** Whom a notice is for: every holder of the warning code sees critical ones; administrators (the institution's own account) also see escalations. */
const noticeWhere = (ctx: Ctx): SQL | undefined =>
  and(eq(warnNotice.musercode, ctx.me.musercode), ctx.me.userid ? eq(warnNotice.kind, 'critical') : undefined);
const readerOf = (ctx: Ctx) => ctx.me.userid ?? ctx.me.musercode;
const unreadWhere = (ctx: Ctx) =>
  and(
    noticeWhere(ctx),
    notExists(
      ctx.db
        .select({ x: sql`1` })
        .from(warnNoticeRead)
        .where(and(eq(warnNoticeRead.noticeid, warnNotice.noticeid), eq(warnNoticeRead.reader, readerOf(ctx)))),
    ),
  );

export async function unreadCount(ctx: Ctx): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(warnNotice).where(unreadWhere(ctx));
  return Number(row?.n ?? 0);
}

// ---------- follow-ups ----------

async function followRows(ctx: Ctx, db: DbOrTx, rows: (typeof followUp.$inferSelect)[]): Promise<FollowUpRow[]> {
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

const dayStart = (d: string) => new Date(`${d}T00:00:00+08:00`);

export const warningHandlers = {
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
    await ctx.audit({ action: 'as.m.warning.getCase', result: 'ok', detail: { caseid, cusercode: c.cusercode } });
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
    await ctx.audit({ action: 'as.m.warning.assignCase', result: 'ok', detail: { caseid, userid } });
    return null;
  },

  'as.m.warning.flagPerson': async ({ cusercode, level, note }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const raised = await ctx.db.transaction(async (tx) => {
      const who = await actorOf(ctx, tx);
      return addWarning(
        tx,
        { musercode: person.musercode, cusercode, kind: 'manual', level, params: { note }, by: who.by, byname: who.byname },
        ctx.now(),
      );
    });
    await ctx.audit({ action: 'as.m.warning.flagPerson', result: 'ok', detail: { cusercode, level, ...raised } });
    return { warningid: raised!.warningid, caseid: raised!.caseid };
  },

  'as.m.warning.insertFollowUp': async ({ caseid, followdate, way, content, risk, nextdate }, ctx) => {
    const followid = newId('WF');
    await ctx.db.transaction(async (tx) => {
      const c = await caseInScope(ctx, tx, caseid, true);
      if (c.state === 'closed') wrongState(c.state);
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
    await ctx.audit({ action: 'as.m.warning.insertFollowUp', result: 'ok', detail: { caseid, followid } });
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
      action: 'as.m.warning.rescreenCase',
      result: 'ok',
      detail: { caseid, plancode, stagecode: stagecode ?? '', assesscode },
    });
    return { assesscode, url: codeUrl(assesscode) };
  },

  'as.m.warning.getWarningSettings': async ({ musercode }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    return { musercode: owner.musercode, ...(await settingsOf(ctx.db, owner.musercode)) };
  },

  // Needs WARNING_SETTINGS_CODE, not the case code (issue 27 §5); audited with what it replaced.
  'as.m.warning.updateWarningSettings': async ({ musercode, ...settings }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const old = await replaceSettings(ctx.db, owner.musercode, settings, ctx.now());
    await ctx.audit({ action: 'as.m.warning.updateWarningSettings', result: 'ok', detail: { target: owner.musercode, old, new: settings } });
    return null;
  },

  'as.m.warning.getNotificationCount': async (_input, ctx) => ({ unread: await unreadCount(ctx) }),

  'as.m.warning.getNotificationList': async ({ unread, page, pageSize }, ctx) => {
    const where = unread ? unreadWhere(ctx) : noticeWhere(ctx);
    const { total, rows } = await paged(
      ctx.db,
      ctx.db.select().from(warnNotice).where(where).$dynamic(),
      [desc(warnNotice.createdat), desc(warnNotice.noticeid)],
      { page, pageSize },
    );
    const read = new Set(
      rows.length
        ? (
            await ctx.db
              .select({ noticeid: warnNoticeRead.noticeid })
              .from(warnNoticeRead)
              .where(
                and(
                  eq(warnNoticeRead.reader, readerOf(ctx)),
                  inArray(
                    warnNoticeRead.noticeid,
                    rows.map((r) => r.noticeid),
                  ),
                ),
              )
          ).map((r) => r.noticeid)
        : [],
    );
    const en = ctx.lang === 'en-US';
    return {
      total,
      rows: rows.map((r) => ({
        noticeid: r.noticeid,
        kind: r.kind as 'critical' | 'escalated',
        caseid: r.caseid,
        level: r.level as WarningLevel,
        text:
          r.kind === 'escalated'
            ? en
              ? `Critical case ${r.caseid} not acknowledged in time`
              : `危机个案 ${r.caseid} 超时未确认，已升级`
            : en
              ? `New critical warning in case ${r.caseid}`
              : `个案 ${r.caseid} 有新的危机预警`,
        read: read.has(r.noticeid),
        createdat: iso(r.createdat),
      })),
    };
  },

  'as.m.warning.markNotificationsRead': async ({ caseid }, ctx) => {
    if (caseid) await caseInScope(ctx, ctx.db, caseid);
    const ids = (
      await ctx.db
        .select({ id: warnNotice.noticeid })
        .from(warnNotice)
        .where(and(unreadWhere(ctx), caseid ? eq(warnNotice.caseid, caseid) : undefined))
    ).map((r) => r.id);
    if (ids.length)
      await ctx.db
        .insert(warnNoticeRead)
        .values(ids.map((noticeid) => ({ noticeid, reader: readerOf(ctx), readat: ctx.now() })))
        .onConflictDoNothing();
    return { unread: await unreadCount(ctx) };
  },

  'as.m.exam.exportCUserWarningDetailData': async (filters, ctx) => {
    await checkCaseFilters(ctx, filters);
    const where = caseWhere(ctx, filters);
    await ctx.audit({ action: 'as.m.exam.exportCUserWarningDetailData', result: 'ok', detail: { filters } });
    const en = ctx.lang === 'en-US';
    const header = en
      ? [
          'Case',
          'Institution',
          'Person',
          'Case level',
          'State',
          'Assignee',
          'Opened',
          'Warning level',
          'Kind',
          'Reason',
          'Form',
          'Raised at',
        ]
      : ['个案', '机构', '测评对象', '个案等级', '状态', '负责人', '开案时间', '预警等级', '类型', '原因', '量表', '预警时间'];
    const out = streamXlsx(en ? 'Warnings' : '预警明细', header, async (add) => {
      for (let page = 1; ; page++) {
        const cases = await ctx.db
          .select()
          .from(warnCase)
          .where(where)
          .orderBy(...caseOrder)
          .limit(500)
          .offset(offsetOf({ page, pageSize: 500 }));
        const rows = await caseRows(ctx, ctx.db, cases);
        const warnings = cases.length
          ? await ctx.db
              .select()
              .from(warning)
              .where(
                inArray(
                  warning.caseid,
                  cases.map((c) => c.caseid),
                ),
              )
              .orderBy(desc(warning.createdat))
          : [];
        const names = await formNames(
          ctx,
          ctx.db,
          warnings.map((w) => w.formcode),
        );
        await add(
          rows.flatMap((r) =>
            warnings
              .filter((x) => x.caseid === r.caseid)
              .map((w) => {
                const wr = warningRowOf(ctx, w, names);
                return [
                  r.caseid,
                  r.insname,
                  r.realname,
                  levelText(r.level, en),
                  stateText(r.state, en),
                  r.assigneename,
                  r.openedat,
                  levelText(wr.level, en),
                  enumLabel(WarningKindName, wr.kind, en ? 'en-US' : 'zh-CN'),
                  wr.reason,
                  wr.formname,
                  wr.createdat,
                ];
              }),
          ),
        );
        if (cases.length < 500) break;
      }
    });
    return { filename: en ? 'warnings.xlsx' : '预警明细.xlsx', contentType: XLSX_TYPE, body: out };
  },

  'as.m.hospital.statistic.getInterfereRecord': async ({ musercode, startdate, enddate, page, pageSize }, ctx) => {
    const scope = ownedBy(ctx, followUp.musercode, musercode || undefined);
    const where = and(
      scope,
      startdate ? gte(followUp.followdate, startdate) : undefined,
      enddate ? lte(followUp.followdate, enddate) : undefined,
    );
    const { total, rows } = await paged(
      ctx.db,
      ctx.db.select().from(followUp).where(where).$dynamic(),
      [desc(followUp.followdate), desc(followUp.createdat), asc(followUp.followid)],
      {
        page,
        pageSize,
      },
    );
    const caseScope = and(
      ownedBy(ctx, warnCase.musercode, musercode || undefined),
      startdate ? gte(warnCase.openedat, dayStart(startdate)) : undefined,
      enddate ? sql`${warnCase.openedat} < ${new Date(dayStart(enddate).getTime() + 86_400_000)}` : undefined,
    );
    const states = await ctx.db
      .select({ state: warnCase.state, level: warnCase.level, outcome: warnCase.outcome, n: count() })
      .from(warnCase)
      .where(caseScope)
      .groupBy(warnCase.state, warnCase.level, warnCase.outcome);
    const sum = (f: (s: (typeof states)[number]) => boolean) => states.filter(f).reduce((a, s) => a + Number(s.n), 0);
    const outcomes: Record<string, number> = {};
    for (const s of states) if (s.outcome) outcomes[s.outcome] = (outcomes[s.outcome] ?? 0) + Number(s.n);
    return {
      total,
      rows: await followRows(ctx, ctx.db, rows),
      cases: {
        total: sum(() => true),
        open: sum((s) => s.state !== 'closed'),
        closed: sum((s) => s.state === 'closed'),
        critical: sum((s) => s.level === 'critical'),
        outcomes,
      },
    };
  },
} satisfies HandlerMap;

const levelText = (l: string, en: boolean) => enumLabel(WarningLevelName, l, en ? 'en-US' : 'zh-CN');
