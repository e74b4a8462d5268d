/**
 * Scoring one answer sheet against one definition: item scores (reversal applied), indicators
 * (formula, transforms, precision, band), validity rules, critical items, band warnings and the
 * overall mental state. Pure: no I/O, the same inputs always give the same result.
 */
import {
  bandColour,
  type AnswerSheet,
  type FormDefinition,
  type IndicatorResult,
  type ScoreResult,
  type ScoreWarning,
} from '@xinli/contract';
import { checkAnswers, prepareQuestion, type PreparedQuestion } from './answers.js';
import { findBand } from './bands.js';
import { applyFormula, clean, finalScore, resolveItems } from './formulas.js';
import { conventionOf, screeningWarnings, withConvention } from './rules.js';

interface Compiled {
  questions: Map<number, PreparedQuestion>;
  /** Resolved item lists, one per indicator. */
  items: number[][];
}

/** Definitions are immutable once parsed: the prepared form is cached per definition object. */
const cache = new WeakMap<FormDefinition, Compiled>();

function compile(def: FormDefinition): Compiled {
  let c = cache.get(def);
  if (!c) {
    c = {
      questions: new Map(def.questions.map((q) => [q.no, prepareQuestion(q)])),
      items: def.indicators.map((ind) => resolveItems(def, ind)),
    };
    cache.set(def, c);
  }
  return c;
}

/**
 * Scores a sheet. `def` must have passed parseDefinition (or validateDefinition with no issues).
 * Throws ScoringError (kind 'answers') when any answer is missing, duplicate, unknown, of the
 * wrong kind or out of range.
 *
 * A void sheet (a validity rule met) keeps its indicator scores for staff, but gets mental state
 * 0 and no band warnings; critical-item warnings are raised even then, because a void sheet
 * does not make a suicidal answer less urgent. Screening rules (rules.ts) warn on a sheet that is
 * not void. `opts.convention` names the institution's scoring convention (the form's default when
 * absent or unknown); the result records the one applied.
 */
export function scoreSheet(base: FormDefinition, sheet: AnswerSheet, opts: { convention?: string | null } = {}): ScoreResult {
  const convention = conventionOf(base, opts.convention);
  const def = withConvention(base, convention);
  const c = compile(def);
  const answers = checkAnswers(def, c.questions, sheet);

  const indicators: IndicatorResult[] = def.indicators.map((ind, i) => {
    const items = c.items[i];
    const scores = items.map((no) => answers.get(no)?.score ?? 0);
    const raw = clean(applyFormula(ind.formula, items, scores));
    const score = finalScore(raw, ind);
    const b = findBand(ind.bands, score);
    const band = b >= 0 ? ind.bands[b] : null;
    return {
      code: ind.code,
      name: ind.name,
      kind: ind.kind,
      raw,
      score,
      band: band ? b : null,
      level: band ? band.level : null,
      colour: band ? bandColour(band) : null,
      label: band ? band.label : null,
      interpretation: band ? band.interpretation : null,
      advice: band ? band.advice : null,
      raisesWarning: band ? band.raisesWarning : false,
    };
  });
  const byCode = new Map(indicators.map((r) => [r.code, r]));

  const voidRule = def.validity.find((r) => {
    const s = byCode.get(r.indicator)?.score;
    if (s === undefined) return false;
    return r.op === 'gte' ? s >= r.value : s <= r.value;
  });
  const voided = voidRule !== undefined;

  const warnings: ScoreWarning[] = [];
  for (const r of def.critical) {
    const a = answers.get(r.no);
    if (!a) continue;
    const byScore = r.minScore !== undefined && a.score !== null && a.score >= r.minScore;
    const byOption = r.options !== undefined && a.positions.some((p) => r.options!.includes(p));
    if (byScore || byOption) warnings.push({ source: 'critical', reason: r.reason, no: r.no });
  }
  if (!voided)
    for (const r of indicators)
      if (r.raisesWarning && r.label)
        warnings.push({
          source: 'band',
          indicator: r.code,
          level: r.level ?? undefined,
          reason: {
            zh: `${r.name.zh}：${r.label.zh}（${r.score}分）`,
            en: `${r.name.en || r.name.zh}: ${r.label.en || r.label.zh} (score ${r.score})`,
          },
        });
  if (!voided) warnings.push(...screeningWarnings(def, indicators));

  let mentalState = 0;
  if (!voided && def.mentalState) {
    let top = -1;
    for (const code of def.mentalState.indicators) {
      const level = byCode.get(code)?.level;
      if (level !== null && level !== undefined && level > top) top = level;
    }
    if (top >= 0) mentalState = def.mentalState.levelToState[top];
  }

  return {
    formcode: def.formcode,
    version: def.version,
    items: [...answers.values()]
      .filter((a) => a.score !== null)
      .map((a) => ({ no: a.no, score: a.score as number }))
      .sort((x, y) => x.no - y.no),
    indicators,
    mentalState,
    warnings,
    voided,
    voidReason: voidRule ? voidRule.message : null,
    ...(convention ? { convention: { code: convention.code, name: convention.name, source: convention.source } } : {}),
  };
}
