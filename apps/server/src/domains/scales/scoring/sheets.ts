/**
 * Building answer sheets for a definition: from a choice per question, or at random (valid
 * sheets for benchmarks, demo data and tests).
 */
import type { AnswerInput, AnswerSheet, FormDefinition, QuestionDefinition } from '@xinli/contract';
import { isNumericFill } from './formulas.js';
import { scoreSheet } from './score.js';

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

/**
 * How ill a generated sheet reads (demo data): `none` scores no problem (mental state 0 or 1) and
 * raises no warning; `mild`, `moderate` and `severe` score mental state 2, 3 and 4. A screening
 * population is mostly `none`, so its sheets are drawn from a distribution of these.
 */
export type Severity = 'none' | 'mild' | 'moderate' | 'severe';
const STATE: Record<Severity, number> = { none: 1, mild: 2, moderate: 3, severe: 4 };
/** How strongly option choices lean to the low-scoring end (an exponent on a uniform draw). */
const LEAN: Record<Severity, number> = { none: 4, mild: 1.4, moderate: 0.8, severe: 0.4 };

/**
 * A valid sheet whose scored mental state fits the severity: options are picked by their scored
 * rank (reversed items included), leaning low or high, and the sheet is drawn again until the
 * scoring engine agrees (at most `tries` times; then the closest one). A form without a mental
 * state answers the leaning sheet.
 */
export function severitySheet(def: FormDefinition, severity: Severity, random: () => number, tries = 200): AnswerSheet {
  const want = STATE[severity];
  const lean = LEAN[severity];
  // Option positions ordered from lowest to highest scored value, per question.
  const ranked = new Map(
    def.questions.map((q) => {
      const scores = q.options.map((o) => o.score);
      const lo = Math.min(...scores);
      const hi = Math.max(...scores);
      const scored = q.options.map((o, i) => ({ pos: i + 1, s: q.reverse ? lo + hi - o.score : o.score }));
      return [q.no, scored.sort((a, b) => a.s - b.s || a.pos - b.pos).map((o) => o.pos)];
    }),
  );
  const draw = () =>
    sheetOf(
      def,
      (q) => {
        const order = ranked.get(q.no)!;
        return order[Math.min(order.length - 1, Math.floor(order.length * Math.pow(random(), lean)))] ?? null;
      },
      (q) => (q.range ? String(Math.round(q.range.min + (q.range.max - q.range.min) * random())) : '无'),
    );
  let best = draw();
  if (!def.mentalState) return best;
  let bestGap = Infinity;
  for (let i = 0; i < tries; i++) {
    const sheet = i === 0 ? best : draw();
    const r = scoreSheet(def, sheet);
    const state = Math.max(1, r.mentalState);
    const gap = Math.abs(state - want) + (severity === 'none' && r.warnings.length ? 1 : 0);
    if (gap < bestGap) [best, bestGap] = [sheet, gap];
    if (gap === 0) break;
  }
  return best;
}

/**
 * A screening population's severities (demo data): a person's standing risk (`risk`, drawn once
 * per person from [0, 1)) picks a group, and each sheet of theirs draws a severity from that
 * group. Four in five people are well (one sheet in twenty mild), one in eight at some risk, a few
 * moderate, one in fifty severe: about 15% of sheets score mild or worse, as a real school year
 * or clinic does, rather than a uniform spread.
 */
const GROUPS: { share: number; odds: [Severity, number][] }[] = [
  { share: 0.8, odds: [['none', 0.95], ['mild', 0.05]] },
  { share: 0.12, odds: [['none', 0.6], ['mild', 0.3], ['moderate', 0.1]] },
  { share: 0.06, odds: [['none', 0.3], ['mild', 0.35], ['moderate', 0.25], ['severe', 0.1]] },
  { share: 0.02, odds: [['none', 0.1], ['mild', 0.2], ['moderate', 0.3], ['severe', 0.4]] },
];
export function screeningSeverity(risk: number, random: () => number): Severity {
  let at = 0;
  const group = GROUPS.find((g) => risk < (at += g.share)) ?? GROUPS.at(-1)!;
  let r = random();
  for (const [severity, odds] of group.odds) if ((r -= odds) < 0) return severity;
  return group.odds.at(-1)![0];
}
