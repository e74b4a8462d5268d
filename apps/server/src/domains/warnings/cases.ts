import { and, asc, desc, eq, exists, gte, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import { WARNING_LEVEL_COLOURS, type CaseRow, type CaseState, type WarningKind, type WarningLevel, type WarningRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { iso, todayIn } from '../../kit/index.js';
import { ownedBy, accountNames } from '../accounts/index.js';
import { inScope, scopeWhere } from '../auth/index.js';
import { personBriefs } from '../persons/index.js';
import { findStage } from '../plans/index.js';
import { formBriefs } from '../scales/index.js';
import { staffBriefs } from '../system/index.js';
import { caseEvent, warnCase, warning } from './tables.js';
import { reasonText } from './triggers.js';

export type CaseRecord = typeof warnCase.$inferSelect;
type WarningRecord = typeof warning.$inferSelect;

export const noSuchCase = () => notFound({ zh: '预警个案不存在', en: 'No such warning case' });

/** A case in the caller's scope (locked for update when asked); another institution's is "not found". */
export async function caseInScope(ctx: Ctx, db: DbOrTx, caseid: string, lock = false): Promise<CaseRecord> {
  const q = db
    .select()
    .from(warnCase)
    .where(and(eq(warnCase.caseid, caseid), scopeWhere(warnCase.musercode, ctx.me)));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? noSuchCase();
}

/** Who is acting: the staff user's id, else the account's code; and a name to show. */
export async function actorOf(ctx: Ctx, db: DbOrTx): Promise<{ by: string; byname: string }> {
  if (ctx.me.userid) {
    const s = (await staffBriefs(db, [ctx.me.userid])).get(ctx.me.userid);
    return { by: ctx.me.userid, byname: s?.realname || s?.sysusername || ctx.me.userid };
  }
  return { by: ctx.me.musercode, byname: (await accountNames(db, [ctx.me.musercode])).get(ctx.me.musercode) ?? ctx.me.musercode };
}

export async function recordEvent(
  db: DbOrTx,
  e: { caseid: string; at: Date; by: string; byname: string; from: string; to: string; what: string; note?: string },
) {
  await db
    .insert(caseEvent)
    .values({ caseid: e.caseid, at: e.at, by: e.by, byname: e.byname, fromstate: e.from, tostate: e.to, what: e.what, note: e.note ?? '' });
}

/** A China calendar date's first instant. */
const dayStart = (d: string) => new Date(`${d}T00:00:00+08:00`);
const nextDay = (d: string) => new Date(dayStart(d).getTime() + 86_400_000);

export interface CaseFilters {
  musercode?: string;
  level?: WarningLevel | '';
  kind?: WarningKind | '';
  appid?: string;
  stagecode?: string;
  startdate?: string;
  enddate?: string;
  state?: CaseState | '' | 'all';
  assignee?: string;
}

/** The case list's conditions; a named institution out of scope is "not found". */
/**
 * The ids a case filter names, checked before the list is read: a stage or a staff user of another
 * institution is "not found" (not an empty page), as every other list does.
 */
export async function checkCaseFilters(ctx: Ctx, f: CaseFilters): Promise<void> {
  if (f.stagecode) await findStage(ctx, ctx.db, f.stagecode, false);
  if (f.assignee) {
    const staff = (await staffBriefs(ctx.db, [f.assignee])).get(f.assignee);
    if (!staff || !inScope(ctx.me, staff.musercode)) notFound({ zh: '没有这个工作人员', en: 'No such staff user' });
  }
}

export function caseWhere(ctx: Ctx, f: CaseFilters): SQL | undefined {
  const warned = (cond: SQL) =>
    exists(
      ctx.db
        .select({ x: sql`1` })
        .from(warning)
        .where(and(eq(warning.caseid, warnCase.caseid), cond)),
    );
  return and(
    ownedBy(ctx, warnCase.musercode, f.musercode || undefined),
    f.level ? eq(warnCase.level, f.level) : undefined,
    f.appid ? eq(warnCase.appid, f.appid) : undefined,
    f.kind ? warned(eq(warning.kind, f.kind)) : undefined,
    f.stagecode ? warned(eq(warning.stagecode, f.stagecode)) : undefined,
    f.startdate ? gte(warnCase.openedat, dayStart(f.startdate)) : undefined,
    f.enddate ? lt(warnCase.openedat, nextDay(f.enddate)) : undefined,
    !f.state ? ne(warnCase.state, 'closed') : f.state === 'all' ? undefined : eq(warnCase.state, f.state),
    f.assignee ? eq(warnCase.assignee, f.assignee) : undefined,
  );
}

/** Critical first, then the latest warning first. */
export const caseOrder = [
  sql`case when ${warnCase.level} = 'critical' then 0 else 1 end`,
  desc(warnCase.lastwarningat),
  asc(warnCase.caseid),
];

const en = (ctx: Ctx) => ctx.lang === 'en-US';

export function warningRowOf(ctx: Ctx, w: WarningRecord, formnames: Map<string, string>): WarningRow {
  return {
    warningid: w.warningid,
    caseid: w.caseid,
    kind: w.kind as WarningKind,
    level: w.level as WarningLevel,
    colour: WARNING_LEVEL_COLOURS[w.level as WarningLevel],
    reason: reasonText(w.kind as WarningKind, w.params, en(ctx)),
    reportid: w.assessid,
    formcode: w.formcode,
    formname: formnames.get(w.formcode) ?? '',
    stagecode: w.stagecode,
    createdby: w.createdby,
    createdat: iso(w.createdat),
  };
}

export async function formNames(ctx: Ctx, db: DbOrTx, formcodes: Iterable<string>): Promise<Map<string, string>> {
  const codes = [...new Set(formcodes)].filter(Boolean);
  const briefs = await formBriefs(db, codes, ctx.lang);
  return new Map(codes.map((c) => [c, briefs.get(c)?.formname ?? c]));
}

/** Case rows with their names, kinds and latest reason. */
export async function caseRows(ctx: Ctx, db: DbOrTx, rows: CaseRecord[]): Promise<CaseRow[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.caseid);
  const warnings = await db
    .select()
    .from(warning)
    .where(inArray(warning.caseid, ids))
    .orderBy(desc(warning.createdat), desc(warning.warningid));
  const byCase = new Map<string, WarningRecord[]>();
  for (const w of warnings) byCase.set(w.caseid, [...(byCase.get(w.caseid) ?? []), w]);
  const [ins, persons, staff] = await Promise.all([
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    personBriefs(
      db,
      rows.map((r) => r.cusercode),
      ctx.lang,
    ),
    staffBriefs(
      db,
      rows.map((r) => r.assignee),
    ),
  ]);
  const today = todayIn(ctx.now());
  return rows.map((r) => {
    const list = byCase.get(r.caseid) ?? [];
    const latest = list[0];
    const who = staff.get(r.assignee);
    return {
      caseid: r.caseid,
      musercode: r.musercode,
      insname: ins.get(r.musercode) ?? '',
      cusercode: r.cusercode,
      realname: persons.get(r.cusercode)?.realname ?? '',
      appid: r.appid,
      state: r.state as CaseState,
      level: r.level as WarningLevel,
      colour: WARNING_LEVEL_COLOURS[r.level as WarningLevel],
      kinds: [...new Set(list.map((w) => w.kind as WarningKind))],
      reason: latest ? reasonText(latest.kind as WarningKind, latest.params, en(ctx)) : '',
      warningcount: list.length,
      assignee: r.assignee,
      assigneename: who ? who.realname || who.sysusername : '',
      outcome: (r.outcome as CaseRow['outcome']) ?? null,
      openedat: iso(r.openedat),
      lastwarningat: iso(r.lastwarningat),
      acknowledgedat: r.acknowledgedat ? iso(r.acknowledgedat) : null,
      escalatedat: r.escalatedat ? iso(r.escalatedat) : null,
      closedat: r.closedat ? iso(r.closedat) : null,
      nextdate: r.nextdate,
      overdue: isOverdue(r, today),
    };
  });
}

/** A case not closed whose planned next follow-up date has passed. */
export const isOverdue = (r: Pick<CaseRecord, 'state' | 'nextdate'>, today: string) =>
  r.state !== 'closed' && r.nextdate !== '' && r.nextdate < today;
