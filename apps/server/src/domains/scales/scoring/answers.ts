/**
 * Checking an answer sheet against a definition and turning it into item scores. A sheet with a
 * missing, duplicate, unknown or out-of-range answer is rejected as a whole (ScoringError listing
 * the question numbers); nothing is ever scored from a partial or guessed answer.
 */
import type { AnswerInput, AnswerSheet, FormDefinition, QuestionDefinition } from '@xinli/contract';
import { ScoringError, answerIssuesMessage, type AnswerIssue, type AnswerIssueKind } from './errors.js';
import { isNumericFill, optionExtremes } from './formulas.js';

/** A question prepared for fast scoring. */
export interface PreparedQuestion {
  q: QuestionDefinition;
  /** Score of each option position (index = position - 1), reversal applied. */
  optionScores: number[];
}

export function prepareQuestion(q: QuestionDefinition): PreparedQuestion {
  const ext = optionExtremes(q);
  return { q, optionScores: q.options.map((o) => (q.reverse ? ext.min + ext.max - o.score : o.score)) };
}

/** One accepted answer: its score (null for unscored fill-ins) and the chosen option positions. */
export interface CheckedAnswer {
  no: number;
  score: number | null;
  positions: number[];
  text?: string;
}

const NUMBER = /^[+-]?(\d+(\.\d+)?|\.\d+)$/;

/** Checks one answer; returns the issue kind, or the accepted answer. */
function checkOne(p: PreparedQuestion, a: AnswerInput): AnswerIssueKind | CheckedAnswer {
  const q = p.q;
  const n = q.options.length;
  if (q.type === 1) {
    if (a.option === undefined || a.options !== undefined || a.text !== undefined) return 'wrongKind';
    if (!Number.isInteger(a.option) || a.option < 1 || a.option > n) return 'outOfRange';
    return { no: q.no, score: p.optionScores[a.option - 1], positions: [a.option] };
  }
  if (q.type === 2) {
    if (a.options === undefined || a.option !== undefined || a.text !== undefined) return 'wrongKind';
    if (a.options.length === 0) return 'missing';
    if (new Set(a.options).size !== a.options.length) return 'duplicate';
    let s = 0;
    for (const o of a.options) {
      if (!Number.isInteger(o) || o < 1 || o > n) return 'outOfRange';
      s += p.optionScores[o - 1];
    }
    return { no: q.no, score: s, positions: [...a.options].sort((x, y) => x - y) };
  }
  if (a.text === undefined || a.option !== undefined || a.options !== undefined) return 'wrongKind';
  const text = a.text.trim();
  if (text === '') return 'missing';
  if (!isNumericFill(q)) return { no: q.no, score: null, positions: [], text };
  if (!NUMBER.test(text)) return 'invalidValue';
  const v = Number(text);
  if (q.inputtype === 1 && !Number.isInteger(v)) return 'invalidValue';
  if (q.range && (v < q.range.min || v > q.range.max)) return 'outOfRange';
  const score = q.reverse && q.range ? q.range.min + q.range.max - v : v;
  return { no: q.no, score, positions: [], text };
}

/**
 * Accepted answers by question number, or a ScoringError naming every faulty question.
 * Unanswered optional questions are simply absent.
 */
export function checkAnswers(def: FormDefinition, prepared: Map<number, PreparedQuestion>, sheet: AnswerSheet): Map<number, CheckedAnswer> {
  const found = new Map<AnswerIssueKind, Set<number>>();
  const flag = (kind: AnswerIssueKind, no: number) => {
    let s = found.get(kind);
    if (!s) found.set(kind, (s = new Set()));
    s.add(no);
  };
  const accepted = new Map<number, CheckedAnswer>();
  const seen = new Set<number>();
  for (const a of sheet.answers) {
    if (seen.has(a.no)) {
      flag('duplicate', a.no);
      accepted.delete(a.no);
      continue;
    }
    seen.add(a.no);
    const p = prepared.get(a.no);
    if (!p) {
      flag('unknown', a.no);
      continue;
    }
    const r = checkOne(p, a);
    if (typeof r === 'string') {
      // An empty answer to an optional question is just "not answered".
      if (!(r === 'missing' && !p.q.required)) flag(r, a.no);
    } else accepted.set(a.no, r);
  }
  for (const q of def.questions) if (q.required && !seen.has(q.no)) flag('missing', q.no);
  if (found.size === 0) return accepted;
  const order: AnswerIssueKind[] = ['missing', 'unknown', 'duplicate', 'outOfRange', 'wrongKind', 'invalidValue'];
  const issues: AnswerIssue[] = order
    .filter((k) => found.has(k))
    .map((kind) => ({ kind, nos: [...found.get(kind)!].sort((x, y) => x - y) }));
  throw new ScoringError('answers', answerIssuesMessage(issues), issues);
}
