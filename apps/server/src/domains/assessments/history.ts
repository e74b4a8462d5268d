import { and, asc, desc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import type { ScoreResult } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { preparedOnce } from '../../kit/index.js';
import { assessCode, assessment } from './tables.js';

/**
 * What the warnings domain reads of reports and given assessments (DESIGN §4: through functions):
 * a person's previous report of a form (worsening) and given assessments left unfinished (missed
 * deadlines).
 */

export interface PreviousReport {
  assessid: string;
  score: ScoreResult;
  voided: boolean;
}

/** The person's latest report of the form stored before `before`, other than `except`. */
export async function previousReport(db: DbOrTx, cusercode: string, formcode: string, before: Date, except: string): Promise<PreviousReport | null> {
  const [row] = await previousRead(db).execute({ cusercode, formcode, before: before.toISOString(), except });
  return row ? { assessid: row.assessid, score: row.scores as ScoreResult, voided: row.voided === 1 } : null;
}
/** Prepared: every submission is compared with the person's previous report of the form. */
const previousRead = preparedOnce('previous_report', (db, name) =>
  db
    .select({ assessid: assessment.assessid, scores: assessment.scores, voided: assessment.voided })
    .from(assessment)
    .where(
      and(
        eq(assessment.cusercode, sql.placeholder('cusercode')),
        eq(assessment.formcode, sql.placeholder('formcode')),
        lt(assessment.createdat, sql.placeholder('before')),
        ne(assessment.assessid, sql.placeholder('except')),
      ),
    )
    .orderBy(desc(assessment.createdat), desc(assessment.assessid))
    .limit(1)
    .prepare(name),
);

export interface UnfinishedCode {
  assesscode: string;
  musercode: string;
  cusercode: string;
  stagecode: string;
  createdat: Date;
}

/** Given assessments not finished, given before `before`, in order of their code after `after` (batches). */
export async function unfinishedCodes(db: DbOrTx, before: Date, after: string, limit: number, musercodes?: string[]): Promise<UnfinishedCode[]> {
  return db
    .select({ assesscode: assessCode.assesscode, musercode: assessCode.musercode, cusercode: assessCode.cusercode, stagecode: assessCode.stagecode, createdat: assessCode.createdat })
    .from(assessCode)
    .where(
      and(
        ne(assessCode.status, 'finished'),
        lt(assessCode.createdat, before),
        gt(assessCode.assesscode, after),
        musercodes ? inArray(assessCode.musercode, musercodes) : undefined,
      ),
    )
    .orderBy(asc(assessCode.assesscode))
    .limit(limit);
}
