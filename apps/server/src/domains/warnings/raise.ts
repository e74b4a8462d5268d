import { and, eq, ne } from 'drizzle-orm';
import type { WarningKind, WarningLevel, WarningSettings } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { iso, newId } from '../../kit/index.js';
import { warningsRaised } from '../../kit/metrics.js';
import { previousReport, type ReportToStore, type StoredReport } from '../assessments/index.js';
import { personBriefs } from '../persons/index.js';
import { type ChangeBasis, changeBasisOf } from '../scales/index.js';
import { publishWarnEvent } from './events.js';
import { settingsOf } from './settings.js';
import { enqueueDelivery, enqueueEscalation } from './queue.js';
import { caseEvent, warnCase, warning, warnNotice } from './tables.js';
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
    (
      await tx
        .select()
        .from(warnCase)
        .where(and(eq(warnCase.cusercode, w.cusercode), ne(warnCase.state, 'closed')))
        .for('update')
    )[0];
  const found = await find();
  if (found) return { row: found, created: false };
  const appid = (await personBriefs(tx, [w.cusercode])).get(w.cusercode)?.appid ?? '';
  // The partial unique index (one case per person not closed) decides a race: the loser joins.
  const [made] = await tx
    .insert(warnCase)
    .values({
      caseid: newId('WC'),
      musercode: w.musercode,
      cusercode: w.cusercode,
      appid,
      state: 'open',
      level: w.level,
      openedat: now,
      lastwarningat: now,
    })
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
export async function addWarning(tx: DbOrTx, w: WarningInput, now: Date, known?: WarningSettings): Promise<Raised | null> {
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
  warningsRaised.inc({ level: w.level, kind: w.kind });
  const level = created ? w.level : higher(c.level as WarningLevel, w.level);
  const critical = w.level === 'critical';
  const settings = critical ? (known ?? (await settingsOf(tx, c.musercode))) : null;
  // The escalation clock runs from the first critical warning while the case is still open.
  const startClock = critical && c.state === 'open' && !c.escalatedue && !c.escalatedat && settings!.escalateminutes > 0;
  const due = startClock ? new Date(now.getTime() + settings!.escalateminutes * 60_000) : null;
  await tx
    .update(warnCase)
    .set({ level, lastwarningat: now, ...(due ? { escalatedue: due } : {}) })
    .where(eq(warnCase.caseid, c.caseid));
  if (due) await enqueueEscalation(tx, c.caseid, due, now);
  await tx
    .insert(caseEvent)
    .values({
      caseid: c.caseid,
      at: now,
      by: w.by,
      byname: w.byname ?? '',
      fromstate: created ? '' : c.state,
      tostate: c.state,
      what: 'warning',
      note: warningid,
    });
  if (critical) await announce(tx, { kind: 'critical', caseid: c.caseid, musercode: c.musercode, warningid }, now);
  await publishWarnEvent(tx, { kind: critical ? 'critical' : 'warning', caseid: c.caseid, level, musercode: c.musercode });
  return { warningid, caseid: c.caseid, joined: !created };
}

/** A console notice and an outbound message (ids, level, link; no name or phone). */
export async function announce(
  tx: DbOrTx,
  a: { kind: 'critical' | 'escalated'; caseid: string; musercode: string; warningid?: string },
  now: Date,
) {
  await tx
    .insert(warnNotice)
    .values({
      noticeid: newId('WM'),
      musercode: a.musercode,
      caseid: a.caseid,
      warningid: a.warningid ?? null,
      kind: a.kind,
      level: 'critical',
      createdat: now,
    })
    .onConflictDoNothing();
  await enqueueDelivery(tx, { kind: a.kind, caseid: a.caseid, musercode: a.musercode, level: 'critical', at: iso(now) }, now);
}

/** The figures of a previous report, or null when there is none. */
export type PreviousFigures = (Headline & { voided: boolean }) | null;

/**
 * The triggers of a report, called in the transaction that stores it (respondent submission, demo
 * seeding). `previous` may be given by a caller that already knows it (the demo seeds thousands);
 * otherwise the person's previous report of the form is read.
 */
export async function raiseWarningsForReport(
  tx: DbOrTx,
  r: StoredReport,
  previous?: PreviousFigures,
  known?: WarningSettings,
  knownBasis?: ChangeBasis | null,
): Promise<Raised[]> {
  if (!r.cusercode) return [];
  const basis = knownBasis !== undefined ? knownBasis : await changeBasisOf(tx, r.formcode);
  let prev = previous;
  if (prev === undefined) {
    const p = await previousReport(tx, r.cusercode, r.formcode, new Date(r.createdat.getTime() + 1), r.assessid);
    prev = p ? { ...headlineOf(p.score, basis?.rule.code), voided: p.voided } : null;
  }
  const settings = known ?? (await settingsOf(tx, r.musercode));
  const out: Raised[] = [];
  for (const t of reportTriggers(r.score, prev, settings, basis)) {
    const raised = await addWarning(
      tx,
      {
        musercode: r.musercode,
        cusercode: r.cusercode,
        kind: t.kind,
        level: t.level,
        params: t.params,
        assessid: r.assessid,
        formcode: r.formcode,
        stagecode: r.stagecode,
        by: 'system',
      },
      r.createdat,
      settings,
    );
    if (raised) out.push(raised);
  }
  return out;
}

/**
 * What a submission is judged by, read before the transaction that stores it: the institution's
 * settings and the form's change basis (rows that rarely change, kept by the process:
 * kit/reference-reads, so a class's submissions read them once; a kept read from inside the
 * transaction would wait for a second connection while holding one), and the person's previous
 * report of the form (read committed: what the transaction would have read, bar a report of the
 * same person and form committed in the moment between).
 */
export interface SubmissionBasis {
  settings: WarningSettings;
  basis: ChangeBasis | null;
  previous: PreviousFigures;
}
export async function submissionBasis(db: DbOrTx, r: ReportToStore): Promise<SubmissionBasis> {
  const [settings, basis, p] = await Promise.all([
    settingsOf(db, r.musercode),
    changeBasisOf(db, r.formcode),
    r.cusercode ? previousReport(db, r.cusercode, r.formcode, new Date(r.createdat.getTime() + 1), r.assessid) : null,
  ]);
  return { settings, basis, previous: p ? { ...headlineOf(p.score, basis?.rule.code), voided: p.voided } : null };
}

/** The triggers of a respondent's submission, in the transaction that stores it, by what was read before it. */
export async function raiseWarningsForSubmission(tx: DbOrTx, r: StoredReport, known: SubmissionBasis): Promise<Raised[]> {
  return raiseWarningsForReport(tx, r, known.previous, known.settings, known.basis);
}

/**
 * Demo seeding: the triggers of many stored reports in time order, each compared with the
 * person's previous one. Reports before `since` only serve as the previous report: a demo's year of
 * history would otherwise open hundreds of long-stale cases (and take minutes to seed).
 */
export async function raiseWarningsForReports(tx: DbOrTx, reports: StoredReport[], since = new Date(0)): Promise<number> {
  const sorted = [...reports].sort((a, b) => a.createdat.getTime() - b.createdat.getTime());
  const last = new Map<string, PreviousFigures>();
  const settings = new Map<string, WarningSettings>();
  const bases = new Map<string, ChangeBasis | null>();
  let n = 0;
  for (const r of sorted) {
    const key = `${r.cusercode} ${r.formcode}`;
    if (!settings.has(r.musercode)) settings.set(r.musercode, await settingsOf(tx, r.musercode));
    if (!bases.has(r.formcode)) bases.set(r.formcode, await changeBasisOf(tx, r.formcode));
    const basis = bases.get(r.formcode) ?? null;
    if (r.createdat >= since) n += (await raiseWarningsForReport(tx, r, last.get(key) ?? null, settings.get(r.musercode), basis)).length;
    last.set(key, { ...headlineOf(r.score, basis?.rule.code), voided: r.score.voided });
  }
  return n;
}
