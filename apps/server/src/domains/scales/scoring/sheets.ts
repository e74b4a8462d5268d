/**
 * Building answer sheets for a definition: from a choice per question, or at random (valid
 * sheets for benchmarks, demo data and tests).
 */
import type { AnswerInput, AnswerSheet, FormDefinition, QuestionDefinition } from '@xinli/contract';
import { isNumericFill } from './formulas.js';

/** A sheet answering every choice question with the option position `pick` gives (fill-ins: `text`). */
export function sheetOf(
  def: FormDefinition,
  pick: (q: QuestionDefinition) => number | null,
  text = (q: QuestionDefinition) => `${q.no}`,
): AnswerSheet {
  const answers: AnswerInput[] = [];
  for (const q of def.questions) {
    if (q.type === 0) answers.push({ no: q.no, text: text(q) });
    else {
      const p = pick(q);
      if (p === null) continue;
      answers.push(q.type === 1 ? { no: q.no, option: p } : { no: q.no, options: [p] });
    }
  }
  return { answers };
}

/** A random valid sheet: every question answered (multiple choice: a random non-empty subset). */
export function randomSheet(def: FormDefinition, random: () => number = Math.random): AnswerSheet {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const answers: AnswerInput[] = def.questions.map((q) => {
    const n = q.options.length;
    if (q.type === 1) return { no: q.no, option: int(1, n) };
    if (q.type === 2) {
      const chosen = q.options.map((_, i) => i + 1).filter(() => random() < 0.5);
      return { no: q.no, options: chosen.length ? chosen : [int(1, n)] };
    }
    if (isNumericFill(q)) {
      const lo = q.range?.min ?? 0;
      const hi = q.range?.max ?? 100;
      return { no: q.no, text: String(q.inputtype === 1 ? int(Math.ceil(lo), Math.floor(hi)) : lo + random() * (hi - lo)) };
    }
    return { no: q.no, text: 'x' };
  });
  return { answers };
}

/** A small deterministic random generator (mulberry32), so generated sheets are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
