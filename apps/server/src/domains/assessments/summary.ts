import type { FormDefinition, ScoreResult } from '@xinli/contract';
import { conventionOf, withConvention } from '../scales/index.js';

/**
 * A report keeps its score without the texts the form version already holds (indicator names,
 * band labels, interpretations and advice: a few kilobytes per report, the same for thousands of
 * reports). The version a report was scored on is frozen once it has results, so its texts are
 * read back from that version whenever the report is shown (`withTexts`).
 */
export function withoutTexts(score: ScoreResult): ScoreResult {
  return {
    ...score,
    indicators: score.indicators.map((i) => ({ ...i, name: { zh: i.code, en: '' }, label: null, interpretation: null, advice: null })),
  };
}

/** The stored score with the texts of the version (and scoring convention) it was scored on. */
export function withTexts(score: ScoreResult, base: FormDefinition): ScoreResult {
  // A convention's bands replace the form's own: the stored band index points into them.
  const def = score.convention ? withConvention(base, conventionOf(base, score.convention.code)) : base;
  return {
    ...score,
    indicators: score.indicators.map((i) => {
      const ind = def.indicators.find((d) => d.code === i.code);
      const band = ind && i.band !== null ? ind.bands[i.band] : undefined;
      return {
        ...i,
        name: ind?.name ?? i.name,
        label: band?.label ?? i.label,
        interpretation: band?.interpretation ?? i.interpretation,
        advice: band?.advice ?? i.advice,
      };
    }),
  };
}

/** What a respondent (or an archive trend) shows of each indicator: plain language, no formulas. */
export function summaryOf(score: ScoreResult) {
  return score.indicators.map((i) => ({
    name: i.name,
    score: i.score,
    level: i.level,
    colour: i.colour,
    label: i.label,
    interpretation: i.interpretation,
    advice: i.advice,
  }));
}
