import type { FormDefinition, ScoreResult } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { preparedRows } from '../../kit/index.js';
import { assessmentIndicator } from './tables.js';

/**
 * Which indicators count as anxiety or depression for the anxious/depressed list: the totals of
 * the built-in depression and anxiety scales, the SCL-90 factors, and any other indicator whose
 * Chinese name says 抑郁 (depression) or 焦虑 (anxiety), so an institution's own scale is
 * included when it names its indicator so. Fixed when the report is stored.
 */
const BUILT_IN: Record<string, 'anxious' | 'depressed'> = {
  'PHQ9:TOTAL': 'depressed',
  'PHQA:TOTAL': 'depressed',
  'EPDS:TOTAL': 'depressed',
  'SDS:STD': 'depressed',
  'GDS15:TOTAL': 'depressed',
  'SCL90:DEP': 'depressed',
  'GAD7:TOTAL': 'anxious',
  'SAS:STD': 'anxious',
  'SCL90:ANX': 'anxious',
  'MHT:TOTAL': 'anxious',
};

export function moodOf(formcode: string, code: string, namezh: string): 'anxious' | 'depressed' | null {
  const known = BUILT_IN[`${formcode}:${code}`];
  if (known) return known;
  if (namezh.includes('抑郁')) return 'depressed';
  if (namezh.includes('焦虑')) return 'anxious';
  return null;
}

/** The indicator rows of a scored report. */
export function indicatorRows(reportid: string, def: FormDefinition, score: ScoreResult): (typeof assessmentIndicator.$inferInsert)[] {
  const names = new Map(def.indicators.map((i) => [i.code, i.name.zh]));
  return score.indicators.map((i) => ({
    assessid: reportid,
    formcode: def.formcode,
    code: i.code,
    score: i.score,
    level: i.level,
    colour: i.colour,
    mood: moodOf(def.formcode, i.code, names.get(i.code) ?? ''),
  }));
}

const insertIndicators = preparedRows('indicator_rows', assessmentIndicator, [
  'assessid',
  'formcode',
  'code',
  'score',
  'level',
  'colour',
  'mood',
]);

/**
 * Stores the indicator rows of reports. Called by whoever stores reports (the respondent's submit,
 * the demo seeding), in the same transaction, so a report never exists without them.
 */
export async function storeIndicators(tx: DbOrTx, rows: (typeof assessmentIndicator.$inferInsert)[]) {
  for (let i = 0; i < rows.length; i += 1000) await insertIndicators(tx, rows.slice(i, i + 1000));
}
