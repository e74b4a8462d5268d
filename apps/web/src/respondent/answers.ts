/**
 * Answers as the respondent page keeps them: the submit format of the scoring engine
 * (`{ no, option | options | text }`, questions and options from 1), and the check of one answer
 * before it is saved. Fill-in texts follow the input types of SPEC §3:
 *   0 text, 1 integer, 2 decimal, 3 date YYYY-MM-DD, 4 time HH:MM, 5 date+time "YYYY-MM-DD HH:MM",
 *   6 time range "HH:MM-HH:MM", 7 number picker (an integer in the question's range),
 *   8 region: the 6-digit GB/T 2260 code of the district ("330108"), or of the city where it has none.
 */
import type { ActionOutput, AnswerInput } from '@xinli/contract';
import { t } from './i18n';

/** A question as the respondent channel sends it (no option scores). */
export type RQuestion = ActionOutput<'as.c.exam.getForm'>['questions'][number];
export type Answers = Record<number, AnswerInput>;

/** True when the answer holds something (an empty fill-in is no answer). */
export function isGiven(a: AnswerInput | undefined): a is AnswerInput {
  if (!a) return false;
  if (a.option !== undefined) return true;
  if (a.options?.length) return true;
  return !!a.text?.trim();
}

/** The sentence to show when the answer cannot be saved, or null when it can. */
export function checkAnswer(q: RQuestion, a: AnswerInput | undefined): string | null {
  if (!isGiven(a)) return q.required ? t('required') : null;
  if (q.type !== 0) return null;
  const text = a.text!.trim();
  switch (q.inputtype ?? 0) {
    case 1:
    case 7:
      if (!/^-?\d+$/.test(text)) return t('fill.integerBad');
      return inRange(q, Number(text));
    case 2:
      if (!/^-?\d+(\.\d+)?$/.test(text)) return t('fill.decimalBad');
      return inRange(q, Number(text));
    case 6:
      // Same rule as the archive on the server: both times, the start not after the end.
      return /^\d{2}:\d{2}-\d{2}:\d{2}$/.test(text) && text.slice(0, 5) <= text.slice(6) ? null : t('fill.timeRangeBad');
    case 8:
      return /^[1-9]\d{5}$/.test(text) ? null : t('fill.regionEmpty');
    default:
      return null;
  }
}

function inRange(q: RQuestion, n: number): string | null {
  if (!q.range) return null;
  return n < q.range.min || n > q.range.max ? t('fill.rangeBad', { min: q.range.min, max: q.range.max }) : null;
}

/** Where to resume: the first question without an answer, or the end when all are answered. */
export function resumeIndex(questions: RQuestion[], answers: Answers): number {
  const i = questions.findIndex((q) => !isGiven(answers[q.no]));
  return i === -1 ? questions.length : i;
}

export function byNo(list: AnswerInput[]): Answers {
  return Object.fromEntries(list.map((a) => [a.no, a]));
}

/** An archive answer as the person's archive keeps it (as.c.exam.saveArchive). */
export interface ArchiveValue {
  no: number;
  value: string | number | number[];
}

/** The archive keeps single choices as the position, multiple as positions, numbers as numbers. */
export function toArchiveValue(q: RQuestion, a: AnswerInput): ArchiveValue {
  if (a.options) return { no: a.no, value: a.options };
  if (a.option !== undefined) return { no: a.no, value: a.option };
  const text = (a.text ?? '').trim();
  const numeric = [1, 2, 7].includes(q.inputtype ?? 0) && text !== '' && Number.isFinite(Number(text));
  return { no: a.no, value: numeric ? Number(text) : text };
}

export function fromArchiveValue(q: RQuestion | undefined, v: ArchiveValue): AnswerInput {
  if (Array.isArray(v.value)) return { no: v.no, options: v.value };
  if (typeof v.value === 'number' && q && q.type !== 0) return { no: v.no, option: v.value };
  return { no: v.no, text: String(v.value) };
}
