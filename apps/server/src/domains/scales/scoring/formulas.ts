/**
 * Arithmetic of indicators: which items an indicator reads, its formula, its transforms and the
 * rounding to its precision, plus the range of scores a question or indicator can reach (used by
 * the definition validator to check that the bands cover every possible score).
 */
import type { FormDefinition, FormulaDefinition, IndicatorDefinition, QuestionDefinition, TransformDefinition } from '@xinli/contract';

/** Fill-in input types that carry a number and may be scored: integer, decimal, number picker. */
export const NUMERIC_INPUT_TYPES: ReadonlySet<number> = new Set([1, 2, 7]);

export const isChoice = (q: QuestionDefinition): boolean => q.type === 1 || q.type === 2;
export const isNumericFill = (q: QuestionDefinition): boolean => q.type === 0 && NUMERIC_INPUT_TYPES.has(q.inputtype ?? 0);
/** A question whose answer has a score: a choice question or a numeric fill-in. */
export const isScored = (q: QuestionDefinition): boolean => isChoice(q) || isNumericFill(q);

/** Removes floating-point noise (0.29 * 100 = 28.999999999999996) before int/round/compare. */
export const clean = (x: number): number => Math.round(x * 1e9) / 1e9;

/** Rounds half away from zero to `digits` decimal places. */
export function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  return (Math.sign(x) * Math.round(clean(Math.abs(x) * f))) / f;
}

/** The questions an indicator reads (see IndicatorDefinition.items). */
export function resolveItems(def: Pick<FormDefinition, 'questions'>, indicator: IndicatorDefinition): number[] {
  if (indicator.items) return indicator.items;
  const pick = indicator.kind === 'factor' ? (q: QuestionDefinition) => q.factor === indicator.code : isScored;
  return def.questions.filter(pick).map((q) => q.no);
}

/** Lowest and highest forward option score of a choice question (reversal mirrors within them). */
export function optionExtremes(q: QuestionDefinition): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const o of q.options) {
    if (o.score < min) min = o.score;
    if (o.score > max) max = o.score;
  }
  return { min, max };
}

/** Score of a chosen option, reversed when the question says so. */
export function optionScore(q: QuestionDefinition, position: number, ext = optionExtremes(q)): number {
  const s = q.options[position - 1].score;
  return q.reverse ? ext.min + ext.max - s : s;
}

/** The scores a question can give: [min, max] (infinite for an unbounded numeric fill-in). */
export function questionRange(q: QuestionDefinition): { min: number; max: number } {
  if (isNumericFill(q)) return q.range ? { min: q.range.min, max: q.range.max } : { min: -Infinity, max: Infinity };
  const ext = optionExtremes(q);
  if (q.type === 1) return ext;
  // Multiple choice: at least one option; the score is the sum of the chosen ones.
  const scores = q.options.map((_, i) => optionScore(q, i + 1, ext));
  const neg = scores.filter((s) => s < 0).reduce((a, b) => a + b, 0);
  const pos = scores.filter((s) => s > 0).reduce((a, b) => a + b, 0);
  return { min: Math.min(ext.min, neg), max: Math.max(ext.max, pos) };
}

/** Raw value of a formula over the item scores, in the order of `items`. */
export function applyFormula(formula: FormulaDefinition, items: readonly number[], scores: readonly number[]): number {
  switch (formula.op) {
    case 'sum': {
      let t = 0;
      for (const s of scores) t += s;
      return t;
    }
    case 'mean': {
      let t = 0;
      for (const s of scores) t += s;
      return scores.length ? t / scores.length : 0;
    }
    case 'weightedSum': {
      let t = 0;
      for (const w of formula.weights) {
        const i = items.indexOf(w.no);
        if (i >= 0) t += w.weight * scores[i];
      }
      return t;
    }
    case 'countAtLeast': {
      let n = 0;
      for (const s of scores) if (clean(s) >= formula.value) n++;
      return n;
    }
    case 'countBelow': {
      let n = 0;
      for (const s of scores) if (clean(s) < formula.value) n++;
      return n;
    }
    case 'meanAtLeast': {
      let t = 0;
      let n = 0;
      for (const s of scores)
        if (clean(s) >= formula.value) {
          t += s;
          n++;
        }
      return n ? t / n : 0;
    }
  }
}

export function applyTransforms(x: number, transforms: readonly TransformDefinition[]): number {
  let v = x;
  for (const t of transforms) {
    if (t.op === 'linear') v = t.a * v + t.b;
    else if (t.op === 'int') v = Math.trunc(clean(v));
    else v = roundTo(v, t.digits);
  }
  return v;
}

/** Final score from the raw value: transforms, then rounding to the indicator's precision. */
export const finalScore = (raw: number, indicator: IndicatorDefinition): number =>
  roundTo(applyTransforms(raw, indicator.transforms), indicator.precision);

/**
 * The range of final scores an indicator can reach. Every formula is monotone in each item and
 * every transform is monotone, so the extremes come from the item extremes.
 */
export function indicatorRange(def: Pick<FormDefinition, 'questions'>, indicator: IndicatorDefinition): { min: number; max: number } {
  const byNo = new Map(def.questions.map((q) => [q.no, q]));
  const items = resolveItems(def, indicator);
  const ranges = items.map((no) => {
    const q = byNo.get(no);
    return q ? questionRange(q) : { min: 0, max: 0 };
  });
  let lo: number;
  let hi: number;
  const f = indicator.formula;
  if (f.op === 'countAtLeast') {
    lo = ranges.filter((r) => clean(r.min) >= f.value).length;
    hi = ranges.filter((r) => clean(r.max) >= f.value).length;
  } else if (f.op === 'countBelow') {
    lo = ranges.filter((r) => clean(r.max) < f.value).length;
    hi = ranges.filter((r) => clean(r.min) < f.value).length;
  } else if (f.op === 'meanAtLeast') {
    // 0 when no item reaches the threshold, else a mean of scores in [value, highest item max].
    const reach = ranges.filter((r) => clean(r.max) >= f.value);
    lo = !ranges.length || ranges.some((r) => clean(r.min) < f.value) ? 0 : Math.min(...ranges.map((r) => r.min));
    hi = reach.length ? Math.max(...reach.map((r) => r.max)) : 0;
  } else if (f.op === 'weightedSum') {
    lo = 0;
    hi = 0;
    for (const w of f.weights) {
      const i = items.indexOf(w.no);
      if (i < 0) continue;
      const a = w.weight * ranges[i].min;
      const b = w.weight * ranges[i].max;
      lo += Math.min(a, b);
      hi += Math.max(a, b);
    }
  } else {
    lo = ranges.reduce((t, r) => t + r.min, 0);
    hi = ranges.reduce((t, r) => t + r.max, 0);
    if (f.op === 'mean' && ranges.length) {
      lo /= ranges.length;
      hi /= ranges.length;
    }
  }
  const a = finalScore(lo, indicator);
  const b = finalScore(hi, indicator);
  return { min: Math.min(a, b), max: Math.max(a, b) };
}
