/**
 * Archive answers <-> form values. A person's archive holds the answers to the questions of the
 * app's user-archive form (form type 02) as `{ no, value }` (contract `archiveAnswer`), the value
 * following the question (SPEC §3 question types, input types 0–8):
 *   single choice: the option position (from 1) · multiple choice: the positions
 *   fill-in 0 text · 1 integer · 2 decimal · 7 number picker: a number
 *   3 date "2026-01-31" · 4 time "08:30" · 5 date+time "2026-01-31 08:30" · 6 time range "08:30-17:00"
 *   8 region: one GB/T 2260 code, the deepest chosen (district 110101, else city, else province)
 * The widgets hold dayjs values, [dayjs, dayjs] and region code paths; these functions convert.
 */
import dayjs, { type Dayjs } from 'dayjs';
import type { LocalText } from '@xinli/contract';

export const DATE = 'YYYY-MM-DD';
export const TIME = 'HH:mm';
export const DATE_TIME = 'YYYY-MM-DD HH:mm';
export const RANGE_SEP = '-';

/** A question of an archive form as the field renderer needs it (an archive column). */
export interface ArchiveField {
  no: number;
  /** 0 fill-in, 1 single choice, 2 multiple choice. */
  type: number;
  inputtype: number | null;
  required: boolean;
  title: LocalText;
  options: LocalText[];
  range: { min: number; max: number } | null;
}

export type ArchiveValue = string | number | number[];
export interface ArchiveAnswer {
  no: number;
  value: ArchiveValue;
}

/** One field's value in the antd form (what the widget of its input type holds). */
export type FieldValue = string | number | number[] | string[] | Dayjs | [Dayjs, Dayjs] | null | undefined;
/** The form's archive values, keyed by question number. */
export type ArchiveValues = Record<string, FieldValue>;

const isDayjs = (v: unknown): v is Dayjs => dayjs.isDayjs(v);
const NUMERIC = new Set([1, 2, 7]);

/** The region codes from the province down to a GB/T 2260 code (110101 -> 110000, 110100, 110101). */
export function regionPath(code: string): string[] {
  if (!/^[0-9]{6}$/.test(code)) return [];
  const province = `${code.slice(0, 2)}0000`;
  const city = `${code.slice(0, 4)}00`;
  if (code === province) return [province];
  if (code === city) return [province, city];
  return [province, city, code];
}

/** The stored value of a fill-in, or undefined when it is empty. */
export function fillInStored(inputtype: number | null | undefined, v: FieldValue): ArchiveValue | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  const type = inputtype ?? 0;
  if (NUMERIC.has(type)) {
    const n = typeof v === 'number' ? v : Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  switch (type) {
    case 3:
      return isDayjs(v) ? v.format(DATE) : String(v);
    case 4:
      return isDayjs(v) ? v.format(TIME) : String(v);
    case 5:
      return isDayjs(v) ? v.format(DATE_TIME) : String(v);
    case 6:
      if (!Array.isArray(v) || v.length !== 2 || !isDayjs(v[0]) || !isDayjs(v[1])) return undefined;
      return `${v[0].format(TIME)}${RANGE_SEP}${v[1].format(TIME)}`;
    case 8:
      return Array.isArray(v) ? (v.length ? String(v[v.length - 1]) : undefined) : String(v);
    default: {
      const s = String(v).trim();
      return s || undefined;
    }
  }
}

/** The widget value of a stored fill-in (the inverse of fillInStored). */
export function fillInValue(inputtype: number | null | undefined, stored: ArchiveValue | undefined): FieldValue {
  if (stored === undefined || stored === '' || Array.isArray(stored)) return undefined;
  const type = inputtype ?? 0;
  if (NUMERIC.has(type)) {
    const n = Number(stored);
    return Number.isFinite(n) ? n : undefined;
  }
  const text = String(stored);
  switch (type) {
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
      return regionPath(text);
    default:
      return text;
  }
}

/** The answers of a filled archive form, in question order; unanswered questions are left out. */
export function valuesToAnswers(fields: ArchiveField[], values: ArchiveValues): ArchiveAnswer[] {
  const out: ArchiveAnswer[] = [];
  for (const q of [...fields].sort((a, b) => a.no - b.no)) {
    const v = values[String(q.no)];
    if (q.type === 1) {
      if (typeof v === 'number') out.push({ no: q.no, value: v });
    } else if (q.type === 2) {
      if (Array.isArray(v) && v.length) out.push({ no: q.no, value: (v as number[]).map(Number).sort((a, b) => a - b) });
    } else {
      const value = fillInStored(q.inputtype, v);
      if (value !== undefined) out.push({ no: q.no, value });
    }
  }
  return out;
}

/** Form values from stored answers (answers to questions the form no longer has are dropped). */
export function answersToValues(fields: ArchiveField[], answers: ArchiveAnswer[] | null | undefined): ArchiveValues {
  const out: ArchiveValues = {};
  const byNo = new Map((answers ?? []).map((a) => [a.no, a.value]));
  for (const q of fields) {
    if (!byNo.has(q.no)) continue;
    const v = byNo.get(q.no);
    if (q.type === 1) out[String(q.no)] = typeof v === 'number' ? v : undefined;
    else if (q.type === 2) out[String(q.no)] = Array.isArray(v) ? v : [];
    else out[String(q.no)] = fillInValue(q.inputtype, v);
  }
  return out;
}
