/**
 * What other domains call of the warnings domain (DESIGN §4: through exported functions).
 *
 * - submissionBasis, raiseWarningsForSubmission(tx, report, basis) / raiseWarningsForReports: the triggers of stored reports,
 *   in the transaction that stores them (respondent submit, demo seeding). Assessments calls them
 *   through the hook domains/index.ts hands it (hookAssessments), not by importing warnings.
 * - openCaseFromRegistration(tx, ctx, input): a consultation registration becomes (or joins) the
 *   person's open case as a manual warning; answers the case and warning ids.
 * - latestCases(db, cusercodes): each person's open case, else their latest closed one.
 * - caseCountOfPersons / removeCasesOfPersons(tx, cusercodes): how many cases persons have, and
 *   removing them with their warnings, events, follow-ups and notices (undoing a QR-link burst).
 * - caseRecordsOfPerson / eraseCaseTextOfPerson / caseActivitySince: a person's rights over their
 *   record (the export, an erasure, the retention period; rights.ts).
 */
import { count, desc, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { WarningLevel } from '@xinli/contract';
import { personInScope } from '../persons/index.js';
import { actorOf } from './cases.js';
import { addWarning } from './raise.js';
import { warnCase, warning } from './tables.js';

export { raiseWarningsForReports, raiseWarningsForSubmission, submissionBasis } from './raise.js';
export { caseActivitySince, caseRecordsOfPerson, eraseCaseTextOfPerson } from './rights.js';

export interface RegistrationCaseInput {
  /** The person registered (must be in the caller's scope). */
  cusercode: string;
  /** critical for a crisis registration, attention otherwise. */
  level: WarningLevel;
  /** Why: shown as the warning's reason (no more than 500 characters). */
  note: string;
  /** The registration record it came from, kept with the warning. */
  registrationid?: string;
}

/** A registration turns into a manual warning that joins the person's open case or opens one. */
export async function openCaseFromRegistration(
  tx: DbOrTx,
  ctx: Ctx,
  input: RegistrationCaseInput,
): Promise<{ caseid: string; warningid: string }> {
  const person = await personInScope(ctx, tx, input.cusercode);
  const who = await actorOf(ctx, tx);
  const raised = await addWarning(
    tx,
    {
      musercode: person.musercode,
      cusercode: person.cusercode,
      kind: 'manual',
      level: input.level,
      params: { note: input.note.slice(0, 500), registrationid: input.registrationid ?? null },
      by: who.by,
      byname: who.byname,
    },
    ctx.now(),
  );
  // A manual warning has no uniqueness rule, so it is always stored.
  return { caseid: raised!.caseid, warningid: raised!.warningid };
}

/** Each person's open case, else their latest closed one (the group report links its attention list to them). */
export async function latestCases(db: DbOrTx, cusercodes: string[]): Promise<Map<string, { caseid: string; state: string; kinds: string[] }>> {
  if (!cusercodes.length) return new Map();
  const rows = await db
    .selectDistinctOn([warnCase.cusercode], { cusercode: warnCase.cusercode, caseid: warnCase.caseid, state: warnCase.state })
    .from(warnCase)
    .where(inArray(warnCase.cusercode, [...new Set(cusercodes)]))
    .orderBy(warnCase.cusercode, sql`${warnCase.state} = 'closed'`, desc(warnCase.lastwarningat), desc(warnCase.caseid));
  // What raised each case (critical item, band …): a list that names a person says why.
  const kinds = rows.length
    ? await db
        .selectDistinct({ caseid: warning.caseid, kind: warning.kind })
        .from(warning)
        .where(inArray(warning.caseid, rows.map((r) => r.caseid)))
        .orderBy(warning.caseid, warning.kind)
    : [];
  const kindsOf = (caseid: string) => kinds.filter((k) => k.caseid === caseid).map((k) => k.kind);
  return new Map(rows.map((r) => [r.cusercode, { caseid: r.caseid, state: r.state, kinds: kindsOf(r.caseid) }]));
}

/** How many cases (open or closed) the persons have. */
export async function caseCountOfPersons(db: DbOrTx, cusercodes: string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < cusercodes.length; i += 5000) {
    const [row] = await db.select({ n: count() }).from(warnCase).where(inArray(warnCase.cusercode, cusercodes.slice(i, i + 5000)));
    n += Number(row?.n ?? 0);
  }
  return n;
}

/**
 * Removes every case of the persons: their warnings, events, follow-ups and notices go with them
 * (foreign keys). Only for persons who should never have been registered (an undone QR-link
 * burst): a case of a real person is closed with an outcome, never removed. Answers how many.
 */
export async function removeCasesOfPersons(tx: DbOrTx, cusercodes: string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < cusercodes.length; i += 5000) {
    const gone = await tx.delete(warnCase).where(inArray(warnCase.cusercode, cusercodes.slice(i, i + 5000))).returning({ caseid: warnCase.caseid });
    n += gone.length;
  }
  return n;
}
