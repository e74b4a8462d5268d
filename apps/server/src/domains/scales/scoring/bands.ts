/** Score bands ("quota options"): matching a score, and checking that bands tile the score range. */
import type { BandDefinition, IndicatorDefinition, LocalText } from '@xinli/contract';
import { clean } from './formulas.js';

/** Index of the band holding the score (closed ranges), or -1. */
export function findBand(bands: readonly BandDefinition[], score: number): number {
  const s = clean(score);
  for (let i = 0; i < bands.length; i++) if (s >= bands[i].min && s <= bands[i].max) return i;
  return -1;
}

const fmt = (x: number) => String(clean(x));
const span = (b: Pick<BandDefinition, 'min' | 'max'>) => `[${fmt(b.min)}, ${fmt(b.max)}]`;

/**
 * Problems of an indicator's bands: a band upside down or written finer than the indicator's
 * precision, two bands overlapping, a gap between consecutive bands (they must meet exactly:
 * next.min = max + 10^-precision), or part of the reachable range [range.min, range.max] left
 * uncovered. Returns {zh, en} messages; no bands at all is allowed (the indicator is unbanded).
 */
export function bandProblems(indicator: IndicatorDefinition, range: { min: number; max: number }): LocalText[] {
  const out: LocalText[] = [];
  const bands = indicator.bands;
  if (bands.length === 0) return out;
  const step = 10 ** -indicator.precision;
  const onGrid = (x: number) => Math.abs(clean(x / step) - Math.round(x / step)) < 1e-6;
  bands.forEach((b, i) => {
    if (b.min > b.max) out.push({ zh: `第${i + 1}个分段下限大于上限 ${span(b)}`, en: `band ${i + 1} has min above max ${span(b)}` });
    if (!onGrid(b.min) || !onGrid(b.max))
      out.push({
        zh: `第${i + 1}个分段 ${span(b)} 的界值超出指标精度（${indicator.precision} 位小数）`,
        en: `band ${i + 1} ${span(b)} is finer than the indicator precision (${indicator.precision} decimals)`,
      });
  });
  const sorted = [...bands].sort((a, b) => a.min - b.min);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    const cur = sorted[i];
    const distance = clean(cur.min - prev.max);
    if (distance <= 0) out.push({ zh: `分段 ${span(prev)} 与 ${span(cur)} 重叠`, en: `bands ${span(prev)} and ${span(cur)} overlap` });
    else if (distance > clean(step) + 1e-9)
      out.push({ zh: `分段 ${span(prev)} 与 ${span(cur)} 之间有空档`, en: `gap between bands ${span(prev)} and ${span(cur)}` });
  }
  if (Number.isFinite(range.min) && range.min < sorted[0].min)
    out.push({
      zh: `最低可能得分 ${fmt(range.min)} 不在任何分段内`,
      en: `the lowest possible score ${fmt(range.min)} falls in no band`,
    });
  const top = sorted[sorted.length - 1];
  if (Number.isFinite(range.max) && range.max > top.max)
    out.push({
      zh: `最高可能得分 ${fmt(range.max)} 不在任何分段内`,
      en: `the highest possible score ${fmt(range.max)} falls in no band`,
    });
  return out;
}
