import type { NormChangeRule, ReliableChange, ReportNorm } from '@xinli/contract';

/**
 * Reliable and clinically significant change (Jacobson & Truax, 1991), as pure functions.
 * RCI = (x2 − x1) / S_diff with S_diff = SD · √2 · √(1 − r): SD is the norm's standard deviation
 * of the indicator, r its published reliability. |RCI| ≥ 1.96 is a change beyond measurement error
 * at p < .05. Which direction is worse is the rule's data (`higherworse`), never the form's code.
 */

/** The two-tailed 5 % criterion. */
export const RELIABLE_Z = 1.96;

const round2 = (x: number) => Math.round(x * 100) / 100;

export function reliableChangeIndex(from: number, to: number, sd: number, reliability: number): number {
  return (to - from) / (sd * Math.SQRT2 * Math.sqrt(1 - reliability));
}

/** Whether a score lies in the clinical range of a rule (beyond its cut-off in the worse direction). */
const clinical = (rule: NormChangeRule, x: number) => (rule.higherworse ? x > rule.cutoff! : x < rule.cutoff!);

/**
 * The change between two consecutive scores of one indicator. The index is compared at two
 * decimals, as it is shown: a change shown as 1.96 is reliable.
 */
export function reliableChange(rule: NormChangeRule, sd: number, from: number, to: number): ReliableChange {
  const rci = round2(reliableChangeIndex(from, to, sd, rule.reliability));
  const worse = rule.higherworse ? rci : -rci;
  const label = Math.abs(rci) < RELIABLE_Z ? 'unchanged' : worse > 0 ? 'deteriorated' : 'improved';
  let crossing: ReliableChange['crossing'] = null;
  if (rule.cutoff !== null && clinical(rule, from) !== clinical(rule, to)) crossing = clinical(rule, to) ? 'into' : 'out';
  return {
    code: rule.code,
    from,
    to,
    rci,
    label,
    crossing,
    cutoff: rule.cutoff,
    reliability: rule.reliability,
    reliabilitysource: rule.reliabilitysource,
    sd,
  };
}

/** A norm's change rule with the SD of its indicator; null when the norm has no rule or no SD for it. */
export interface ChangeBasis {
  rule: NormChangeRule;
  sd: number;
}

export function changeBasis(n: { scales: { code: string; sd: number }[]; change: NormChangeRule | null } | null): ChangeBasis | null {
  const sd = n?.change ? n.scales.find((s) => s.code === n.change!.code)?.sd : undefined;
  return n?.change && sd ? { rule: n.change, sd } : null;
}

/** Change along a series of reports' indicator scores (oldest first): null for the first or where a score is missing. */
export function changesAlong(basis: ChangeBasis | null, scores: (number | null)[]): (ReliableChange | null)[] {
  return scores.map((to, i) => {
    const from = i > 0 ? scores[i - 1] : null;
    return basis && from !== null && from !== undefined && to !== null ? reliableChange(basis.rule, basis.sd, from, to) : null;
  });
}

/** z = (x − mean) / SD and T = 50 + 10z of each indicator the norm has, in the report's order. */
export function againstNorm(
  indicators: { code: string; name: string; score: number }[],
  scales: { code: string; mean: number; sd: number }[],
): ReportNorm['rows'] {
  const byCode = new Map(scales.map((s) => [s.code, s]));
  return indicators.flatMap((i) => {
    const s = byCode.get(i.code);
    if (!s) return [];
    const z = round2((i.score - s.mean) / s.sd);
    return [{ code: i.code, name: i.name, score: i.score, mean: s.mean, sd: s.sd, z, t: round2(50 + 10 * z) }];
  });
}
