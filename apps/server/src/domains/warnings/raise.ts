import { and, eq, ne, sql } from 'drizzle-orm';
import type { ScoreResult, WarningKind, WarningLevel } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { iso, newId } from '../../kit/index.js';
import { previousReport } from '../assessments/history.js';
import { personBriefs } from '../persons/persons.js';
import { publishWarnEvent } from './events.js';
import { settingsOf } from './settings.js';
import { caseEvent, warnCase, warning, warnNotice, warnOutbox } from './tables.js';
import { headlineOf, higher, reportTriggers, type Headline } from './triggers.js';

export interface WarningInput {
  musercode: string;
  cusercode: string;
  kind: WarningKind;
  level: WarningLevel;
  params: Record<string, unknown>;
  assessid?: string | null;
  assesscode?: string | null;
  formcode?: string;
  stagecode?: string;
  /** userid or musercode of the staff member, 'system' for triggers and sweeps. */
  by: string;
  byname?: string;
}

export interface Raised {
  warningid: string;
  caseid: string;
  /** The warning joined a case that was already open. */
  joined: boolean;
}

type CaseRow = typeof warnCase.$inferSelect;

/** The person's case that is not closed, locked for this transaction; opened when there is none. */
async function openCaseFor(tx: DbOrTx, w: WarningInput, now: Date): Promise<{ row: CaseRow; created: boolean }> {
  const find = async () =>
    (await tx.select().from(warnCase).where(and(eq(warnCase.cusercode, w.cusercode), ne(warnCase.state, 'closed'))).for('update'))[0];
  const found = await find();
  if (found) return { row: found, created: false };
  const appid = (await personBriefs(tx, [w.cusercode])).get(w.cusercode)?.appid ?? '';
  // The partial unique index (one case per person not closed) decides a race: the loser joins.
  const [made] = await tx
    .insert(warnCase)
    .values({ caseid: newId('WC'), musercode: w.musercode, cusercode: w.cusercode, appid, state: 'open', level: w.level, openedat: now, lastwarningat: now })
    .onConflictDoNothing()
    .returning();
  if (made) return { row: made, created: true };
  const other = await find();
  if (!other) throw new Error('a case that is not closed vanished while a warning joined it');
  return { row: other, created: false };
}

/**
 * Stores one warning in the person's open case (opening one if needed), raises the case's level,
 * starts the escalation clock of a critical case nobody has acknowledged, and announces a critical
 * warning (console notice, outbound message, live event). Answers null when the warning already
 * exists (a missed deadline is raised once per given assessment: the unique index says so).
 */
export async function addWarning(tx: DbOrTx, w: WarningInput, now: Date): Promise<Raised | null> {
  const { row: c, created } = await openCaseFor(tx, w, now);
  const warningid = newId('WN');
  const [stored] = await tx
    .insert(warning)
    .values({
      warningid,
      musercode: c.musercode,
      cusercode: w.cusercode,
      caseid: c.caseid,
      assessid: w.assessid ?? null,
      assesscode: w.assesscode ?? null,
      kind: w.kind,
      level: w.level,
      reason: w.kind,
      params: w.params,
      formcode: w.formcode ?? '',
      stagecode: w.stagecode ?? '',
      createdby: w.by,
      createdat: now,
    })
    .onConflictDoNothing()
    .returning({ warningid: warning.warningid });
  if (!stored) {
    if (created) await tx.delete(warnCase).where(eq(warnCase.caseid, c.caseid));
    return null;
  }
  const level = created ? w.level : higher(c.level as WarningLevel, w.level);
  const critical = w.level === 'critical';
  const settings = critical ? await settingsOf(tx, c.musercode) : null;
  // The escalation clock runs from the first critical warning while the case is still open.
  const startClock = critical && c.state === 'open' && !c.escalatedue && !c.escalatedat && settings!.escalateminutes > 0;
  await tx
    .update(warnCase)
    .set({ level, lastwarningat: now, ...(startClock ? { escalatedue: new Date(now.getTime() + settings!.escalateminutes * 60_000) } : {}) })
    .where(eq(warnCase.caseid, c.caseid));
  await tx.insert(caseEvent).values({ caseid: c.caseid, at: now, by: w.by, byname: w.byname ?? '', fromstate: created ? '' : c.state, tostate: c.state, what: 'warning', note: warningid });
  if (critical) await announce(tx, { kind: 'critical', caseid: c.caseid, musercode: c.musercode, warningid }, now);
  await publishWarnEvent(tx, { kind: critical ? 'critical' : 'warning', caseid: c.caseid, level, musercode: c.musercode });
  return { warningid, caseid: c.caseid, joined: !created };
}

/** A console notice and an outbound message (ids, level, link; no name or phone). */
export async function announce(tx: DbOrTx, a: { kind: 'critical' | 'escalated'; caseid: string; musercode: string; warningid?: string }, now: Date) {
  await tx
    .insert(warnNotice)
    .values({ noticeid: newId('WM'), musercode: a.musercode, caseid: a.caseid, warningid: a.warningid ?? null, kind: a.kind, level: 'critical', createdat: now })
    .onConflictDoNothing();
  await tx.insert(warnOutbox).values({
    musercode: a.musercode,
    payload: { kind: a.kind, caseid: a.caseid, musercode: a.musercode, level: 'critical', at: iso(now) },
    nextat: now,
    createdat: now,
  });
}

/** A report as stored, with what the triggers read. */
export interface StoredReport {
  assessid: string;
  musercode: string;
  cusercode: string | null;
  formcode: string;
  stagecode: string;
  createdat: Date;
  score: ScoreResult;
}

/** The figures of a previous report, or null when there is none. */
export type PreviousFigures = (Headline & { voided: boolean }) | null;

/**
 * The triggers of a report, called in the transaction that stores it (respondent submission, demo
 * seeding). `previous` may be given by a caller that already knows it (the demo seeds thousands);
 * otherwise the person's previous report of the form is read.
 */
export async function raiseWarningsForReport(tx: DbOrTx, r: StoredReport, previous?: PreviousFigures): Promise<Raised[]> {
  if (!r.cusercode) return [];
  let prev = previous;
  if (prev === undefined) {
    const p = await previousReport(tx, r.cusercode, r.formcode, new Date(r.createdat.getTime() + 1), r.assessid);
    prev = p ? { ...headlineOf(p.score), voided: p.voided } : null;
  }
  const settings = await settingsOf(tx, r.musercode);
  const out: Raised[] = [];
  for (const t of reportTriggers(r.score, prev, settings)) {
    const raised = await addWarning(
      tx,
      { musercode: r.musercode, cusercode: r.cusercode, kind: t.kind, level: t.level, params: t.params, assessid: r.assessid, formcode: r.formcode, stagecode: r.stagecode, by: 'system' },
      r.createdat,
    );
    if (raised) out.push(raised);
  }
  return out;
}

/** Demo seeding: the triggers of many stored reports in time order, each compared with the person's previous one. */
export async function raiseWarningsForReports(tx: DbOrTx, reports: StoredReport[]): Promise<number> {
  const sorted = [...reports].sort((a, b) => a.createdat.getTime() - b.createdat.getTime());
  const last = new Map<string, PreviousFigures>();
  let n = 0;
  for (const r of sorted) {
    const key = `${r.cusercode} ${r.formcode}`;
    n += (await raiseWarningsForReport(tx, r, last.get(key) ?? null)).length;
    last.set(key, { ...headlineOf(r.score), voided: r.score.voided });
  }
  return n;
}

/** Takes the advisory lock of one sweep so two server processes never run it at once (released at commit). */
export async function trySweepLock(tx: DbOrTx, which: number): Promise<boolean> {
  const res = (await tx.execute(sql`select pg_try_advisory_xact_lock(13, ${which}) as ok`)) as unknown as { rows: { ok: boolean }[] };
  return !!res.rows[0]?.ok;
}
