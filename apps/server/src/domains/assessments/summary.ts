import type { ScoreResult } from '@xinli/contract';

/** What a respondent (or an archive trend) shows of each banded indicator: plain language, no formulas. */
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
