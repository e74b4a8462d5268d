import type { ActionOutput, FormDefinition, RespondentWritten, ScoreResult } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Message } from '../../http/errors.js';

/** A report just stored, as the warning triggers read it. */
export interface StoredReport {
  assessid: string;
  musercode: string;
  cusercode: string | null;
  formcode: string;
  stagecode: string;
  createdat: Date;
  score: ScoreResult;
}

/** A report about to be stored: what its warning basis is read by, before the transaction that stores it. */
export type ReportToStore = Pick<StoredReport, 'assessid' | 'musercode' | 'cusercode' | 'formcode' | 'createdat'>;

/** How stored reports raise their warnings (the warnings domain's triggers). */
export interface WarningRaiser {
  /** What a submission is judged by (the settings, the form's basis, the person's previous report), read before the transaction that stores it. */
  basisOf(db: DbOrTx, report: ReportToStore): Promise<unknown>;
  /** The triggers of one report, in the transaction that stores it (the respondent's submission), by what basisOf read. */
  forReport(tx: DbOrTx, report: StoredReport, basis: unknown): Promise<unknown>;
  /** Demo seeding: many stored reports in time order; those before `since` only serve as the previous report. */
  forReports(tx: DbOrTx, reports: StoredReport[], since?: Date): Promise<number>;
}

/**
 * What assessments takes from the domains that build on it. Warnings reads assessments (a person's
 * previous report, codes to give, unfinished codes) and tasks gives codes through it, so
 * assessments does not import them back (nor reports, which reads assessments' results): the composition root (domains/index.ts) hands these in
 * with `hookAssessments`, and each dependency goes one way.
 */
export interface AssessmentHooks {
  /** The warnings domain's triggers of stored reports. */
  warnings: WarningRaiser;
  /** The reports domain: a submitted report's indicator rows, and the written report a respondent may read. */
  reports: {
    /** Stores the indicators of a report, in the transaction that stores it. */
    storeIndicators(tx: DbOrTx, reportid: string, def: FormDefinition, score: ScoreResult): Promise<unknown>;
    /** The person's approved written report, or null. */
    approvedForPerson(db: DbOrTx, cusercode: string): Promise<RespondentWritten | null>;
    /**
     * The result as the report's custom template lets its respondent see it (issue 31 §4); `codes`
     * are the indicators' codes in the result's order. Absent: the result as it is.
     */
    /**
     * Records the custom template version a report just stored keeps (issue 31 §4), in the
     * transaction that stores it. Absent: the version is recorded when the report is first shown.
     */
    keepTemplateVersion?(tx: DbOrTx, report: { reportid: string; appid: string; plancode: string; formcode: string }, now: Date): Promise<unknown>;
    respondentView?(
      db: DbOrTx,
      report: { reportid: string; appid: string; plancode: string; formcode: string; codes: string[] },
      now: Date,
      result: ActionOutput<'as.c.exam.getResult'>,
    ): Promise<ActionOutput<'as.c.exam.getResult'>>;
  };
  /** Why the task that gave the code takes no step at `now` (not started, ended), or null: the tasks domain's window (window.ts). */
  taskWindow(db: DbOrTx, assesscode: string, now: Date): Promise<Message | null>;
}

let hooks: AssessmentHooks | undefined;

export function hookAssessments(given: AssessmentHooks) {
  hooks = given;
}

/** The hooks handed in; without them a report would warn no one and a closed task's code would open, so it fails instead. */
export function assessmentHooks(): AssessmentHooks {
  if (!hooks) throw new Error('assessments: no hooks were handed in (domains/index.ts calls hookAssessments)');
  return hooks;
}
