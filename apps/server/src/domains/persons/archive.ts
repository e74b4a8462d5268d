/**
 * Archive answers against the app's user-archive form (type 02): checking what a caller sends,
 * the columns a list shows, and the text of each answer in a cell.
 */
import type { ArchiveAnswer, ArchiveColumn, FormDefinition, Lang } from '@xinli/contract';
import type { Message } from '../../http/errors.js';
import { regionName } from '../accounts/index.js';

type Question = FormDefinition['questions'][number];

export interface ArchiveProblem {
  no: number;
  reason: Message;
}

const isCalendarDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) && new Date(Date.parse(s)).toISOString().slice(0, 10) === s;
const isTime = (s: string) => /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(s);

/** The archive columns of a form: one per question, in question order. */
export function archiveColumns(def: FormDefinition): ArchiveColumn[] {
  return [...def.questions]
    .sort((a, b) => a.no - b.no)
    .map((q) => ({
      key: `q${q.no}`,
      no: q.no,
      title: q.text,
      type: q.type,
      inputtype: q.type === 0 ? (q.inputtype ?? 0) : null,
      required: q.required,
      options: q.options.map((o) => o.text),
      range: q.range ?? null,
    }));
}

const msg = (zh: string, en: string): Message => ({ zh, en });

/**
 * One answer checked against its question; answers the stored value or a problem. Input types
 * (SPEC §3): 0 text, 1 integer, 2 decimal, 3 date, 4 time, 5 date+time, 6 time range, 7 number
 * picker, 8 region (a 6-digit region code, kept as a string; the region list check comes with
 * the region domain).
 */
export function checkAnswer(q: Question, value: ArchiveAnswer['value']): { value: ArchiveAnswer['value'] } | { problem: Message } {
  if (q.type === 1) {
    const n = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > q.options.length)
      return { problem: msg(`须为选项序号 1–${q.options.length}`, `must be an option number 1–${q.options.length}`) };
    return { value: n };
  }
  if (q.type === 2) {
    const list = Array.isArray(value) ? value : typeof value === 'number' ? [value] : null;
    if (!list || list.some((n) => n < 1 || n > q.options.length) || new Set(list).size !== list.length)
      return { problem: msg(`须为不重复的选项序号 1–${q.options.length}`, `must be distinct option numbers 1–${q.options.length}`) };
    return { value: [...list].sort((a, b) => a - b) };
  }
  const inputtype = q.inputtype ?? 0;
  if (Array.isArray(value)) return { problem: msg('须为单个值', 'must be a single value') };
  const text = typeof value === 'number' ? String(value) : value.trim();
  const inRange = (n: number) => !q.range || (n >= q.range.min && n <= q.range.max);
  const rangeText = q.range ? `${q.range.min}–${q.range.max}` : '';
  switch (inputtype) {
    case 1:
    case 2:
    case 7: {
      const n = typeof value === 'number' ? value : /^-?[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(n)) return { problem: msg('须为数字', 'must be a number') };
      if (inputtype === 1 && !Number.isInteger(n)) return { problem: msg('须为整数', 'must be a whole number') };
      if (!inRange(n)) return { problem: msg(`须在 ${rangeText} 之间`, `must be within ${rangeText}`) };
      return { value: n };
    }
    case 3:
      return isCalendarDate(text) ? { value: text } : { problem: msg('须为日期 YYYY-MM-DD', 'must be a date YYYY-MM-DD') };
    case 4:
      return isTime(text) ? { value: text } : { problem: msg('须为时间 HH:mm', 'must be a time HH:mm') };
    case 5: {
      const [d, t, extra] = text.split(' ');
      return d && t && !extra && isCalendarDate(d) && isTime(t) ? { value: text } : { problem: msg('须为日期时间 YYYY-MM-DD HH:mm', 'must be a date and time YYYY-MM-DD HH:mm') };
    }
    case 6: {
      const [a, b, extra] = text.split('-');
      return a && b && !extra && isTime(a) && isTime(b) && a <= b ? { value: text } : { problem: msg('须为时间段 HH:mm-HH:mm（开始不晚于结束）', 'must be a time range HH:mm-HH:mm (start not after end)') };
    }
    case 8:
      // A GB/T 2260 code (province, city or district) from the accounts domain's region list.
      return regionName(text) ? { value: text } : { problem: msg('须为有效的行政区划代码（6 位）', 'must be a valid 6-digit region code') };
    default:
      return text.length <= 500 ? { value: text } : { problem: msg('不能超过 500 个字符', 'must be at most 500 characters') };
  }
}

const isEmpty = (v: ArchiveAnswer['value']) => (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * All answers checked against the form. An empty list means "archive not filled yet" and passes;
 * a filled archive must answer every required question. Empty answers are dropped.
 */
export function checkArchive(def: FormDefinition, answers: ArchiveAnswer[]): { answers: ArchiveAnswer[]; problems: ArchiveProblem[] } {
  const byNo = new Map(def.questions.map((q) => [q.no, q]));
  const problems: ArchiveProblem[] = [];
  const out: ArchiveAnswer[] = [];
  const seen = new Set<number>();
  for (const a of answers) {
    const q = byNo.get(a.no);
    if (!q) {
      problems.push({ no: a.no, reason: msg('档案表没有这道题', 'the archive form has no such question') });
      continue;
    }
    if (seen.has(a.no)) {
      problems.push({ no: a.no, reason: msg('重复作答', 'answered twice') });
      continue;
    }
    seen.add(a.no);
    if (isEmpty(a.value)) continue;
    const r = checkAnswer(q, a.value);
    if ('problem' in r) problems.push({ no: a.no, reason: r.problem });
    else out.push({ no: a.no, value: r.value });
  }
  if (answers.length) {
    const answered = new Set(out.map((a) => a.no));
    for (const q of def.questions) if (q.required && !answered.has(q.no) && !problems.some((p) => p.no === q.no)) problems.push({ no: q.no, reason: msg('必填', 'is required') });
  }
  out.sort((a, b) => a.no - b.no);
  return { answers: out, problems };
}

/** The text of each answer for list cells, keyed by column key `q<no>`. */
export function archiveDisplay(def: FormDefinition | null, answers: ArchiveAnswer[], lang: Lang): Record<string, string> {
  const out: Record<string, string> = {};
  if (!def) return out;
  const byNo = new Map(def.questions.map((q) => [q.no, q]));
  const textOf = (t: { zh: string; en: string }) => (lang === 'en-US' && t.en ? t.en : t.zh);
  for (const a of answers) {
    const q = byNo.get(a.no);
    if (!q) continue;
    if (q.type === 0) out[`q${a.no}`] = (q.inputtype === 8 && regionName(String(a.value))) || String(a.value);
    else {
      const picks = Array.isArray(a.value) ? a.value : [a.value];
      out[`q${a.no}`] = picks
        .map((p) => q.options[Number(p) - 1])
        .filter(Boolean)
        .map((o) => textOf(o!.text))
        .join(lang === 'en-US' ? ', ' : '、');
    }
  }
  return out;
}
