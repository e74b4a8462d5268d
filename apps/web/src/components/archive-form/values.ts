/**
 * Archive answers <-> form values. A user-archive form (form type 02) is a scale whose
 * questions are filled in by or for the person; the answers travel in the scoring engine's
 * answer format (`{ no, option | options | text }`), so one shape runs from the respondent page
 * to the archive. Fill-ins keep their value as text in a fixed format per input type (SPEC §3
 * input types 0–8) so the server and exports read them without knowing the widget:
 *   0 text · 1 integer "12" · 2 decimal "1.5" · 3 date "2026-01-31" · 4 time "08:30"
 *   5 date+time "2026-01-31 08:30" · 6 time range "08:30~17:00" · 7 number picker "3"
 *   8 region: the region codes from province to district joined by "/" ("110000/110100/110101")
 */
import dayjs, { type Dayjs } from 'dayjs';
import type { AnswerInput, QuestionDefinition } from '@xinli/contract';

export const DATE = 'YYYY-MM-DD';
export const TIME = 'HH:mm';
export const DATE_TIME = 'YYYY-MM-DD HH:mm';
export const RANGE_SEP = '~';
export const REGION_SEP = '/';

/** One field's value in the antd form (what the widget of its input type holds). */
export type FieldValue = string | number | number[] | string[] | Dayjs | [Dayjs, Dayjs] | null | undefined;
/** The form's archive values, keyed by question number. */
export type ArchiveValues = Record<string, FieldValue>;

const isDayjs = (v: unknown): v is Dayjs => dayjs.isDayjs(v);

/** The text an answer of a fill-in question is stored as, or undefined when it is empty. */
export function fillInText(inputtype: number | undefined, v: FieldValue): string | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  switch (inputtype ?? 0) {
    case 3:
      return isDayjs(v) ? v.format(DATE) : String(v);
    case 4:
      return isDayjs(v) ? v.format(TIME) : String(v);
    case 5:
      return isDayjs(v) ? v.format(DATE_TIME) : String(v);
    case 6: {
      if (!Array.isArray(v) || v.length !== 2 || !isDayjs(v[0]) || !isDayjs(v[1])) return undefined;
      return `${v[0].format(TIME)}${RANGE_SEP}${v[1].format(TIME)}`;
    }
    case 8:
      return Array.isArray(v) ? (v.length ? v.map(String).join(REGION_SEP) : undefined) : String(v);
    default: {
      const s = String(v).trim();
      return s || undefined;
    }
  }
}

/** The widget value of a stored fill-in text (the inverse of fillInText). */
export function fillInValue(inputtype: number | undefined, text: string | undefined): FieldValue {
  if (text === undefined || text === '') return undefined;
  switch (inputtype ?? 0) {
    case 1:
    case 2:
    case 7: {
      const n = Number(text);
      return Number.isFinite(n) ? n : undefined;
    }
    case 3:
      return dayjs(text, DATE);
    case 4:
      return dayjs(`2000-01-01 ${text}`, DATE_TIME);
    case 5:
      return dayjs(text, DATE_TIME);
    case 6: {
      const [a, b] = text.split(RANGE_SEP);
      return a && b ? [dayjs(`2000-01-01 ${a}`, DATE_TIME), dayjs(`2000-01-01 ${b}`, DATE_TIME)] : undefined;
    }
    case 8:
      return text.split(REGION_SEP).filter(Boolean);
    default:
      return text;
  }
}

/** The answers of a filled archive form, in question order; unanswered questions are left out. */
export function valuesToAnswers(questions: QuestionDefinition[], values: ArchiveValues): AnswerInput[] {
  const out: AnswerInput[] = [];
  for (const q of [...questions].sort((a, b) => a.no - b.no)) {
    const v = values[String(q.no)];
    if (q.type === 1) {
      if (typeof v === 'number') out.push({ no: q.no, option: v });
    } else if (q.type === 2) {
      if (Array.isArray(v) && v.length) out.push({ no: q.no, options: (v as number[]).map(Number).sort((a, b) => a - b) });
    } else {
      const text = fillInText(q.inputtype, v);
      if (text !== undefined) out.push({ no: q.no, text });
    }
  }
  return out;
}

/** Form values from stored answers (answers to questions the form no longer has are dropped). */
export function answersToValues(questions: QuestionDefinition[], answers: AnswerInput[] | null | undefined): ArchiveValues {
  const out: ArchiveValues = {};
  const byNo = new Map((answers ?? []).map((a) => [a.no, a]));
  for (const q of questions) {
    const a = byNo.get(q.no);
    if (!a) continue;
    if (q.type === 1) out[String(q.no)] = a.option;
    else if (q.type === 2) out[String(q.no)] = a.options ?? [];
    else out[String(q.no)] = fillInValue(q.inputtype, a.text);
  }
  return out;
}

/**
 * An answer as a reader sees it: the chosen options' texts, or the stored text (a region is
 * named by `regionName` when the page can name codes).
 */
export function answerText(
  q: QuestionDefinition,
  a: AnswerInput | undefined,
  optionText: (t: { zh: string; en: string }) => string,
  regionName?: (codes: string[]) => string,
): string {
  if (!a) return '';
  const opt = (pos: number) => (q.options[pos - 1] ? optionText(q.options[pos - 1].text) : String(pos));
  if (q.type === 1) return a.option ? opt(a.option) : '';
  if (q.type === 2) return (a.options ?? []).map(opt).join('、');
  if (q.inputtype === 8 && a.text && regionName) return regionName(a.text.split(REGION_SEP).filter(Boolean));
  return a.text ?? '';
}
