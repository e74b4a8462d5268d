/**
 * Screening rules and scoring conventions of a definition (issue 31 §1): data, not form-specific
 * code, so an institution's own scale gets the same power as the built-in ones.
 * - A screening rule raises a warning of its level when ANY of its conditions holds (the Chinese
 *   SCL-90 rule: total > 160, or more than 43 positive items, or any factor >= 2).
 * - A convention replaces the transforms and/or bands of some indicators (SDS/SAS: truncate or
 *   round raw x 1.25, cut-offs 53/63/73 or 50/60/70); the institution's choice is applied at
 *   scoring time and the report keeps which one was used.
 */
import type {
  ConventionDefinition,
  FormDefinition,
  IndicatorResult,
  LocalText,
  ScoreWarning,
  ScreeningCondition,
  ScreeningRuleDefinition,
} from '@xinli/contract';
import { bandProblems } from './bands.js';
import type { DefinitionIssue } from './errors.js';
import { indicatorRange } from './formulas.js';

/** Derived definitions are cached per base definition and convention, so the engine's compile cache holds. */
const derived = new WeakMap<FormDefinition, Map<string, FormDefinition>>();

/**
 * The convention a form is scored with: the one `code` names, else the form's first (its default);
 * null for a form without conventions. An unknown code (a convention since removed) falls back to
 * the default rather than refusing the sheet.
 */
export function conventionOf(def: FormDefinition, code?: string | null): ConventionDefinition | null {
  if (def.conventions.length === 0) return null;
  return def.conventions.find((c) => c.code === code) ?? def.conventions[0];
}

/** The definition with a convention's transforms and bands in place of the indicators' own. */
export function withConvention(def: FormDefinition, convention: ConventionDefinition | null): FormDefinition {
  if (!convention || convention.indicators.length === 0) return def;
  let byCode = derived.get(def);
  if (!byCode) derived.set(def, (byCode = new Map()));
  let out = byCode.get(convention.code);
  if (!out) {
    const over = new Map(convention.indicators.map((o) => [o.code, o]));
    out = {
      ...def,
      indicators: def.indicators.map((ind) => {
        const o = over.get(ind.code);
        return o ? { ...ind, transforms: o.transforms ?? ind.transforms, bands: o.bands ?? ind.bands } : ind;
      }),
    };
    byCode.set(convention.code, out);
  }
  return out;
}

const meets = (score: number, op: 'gt' | 'gte', value: number) => (op === 'gt' ? score > value : score >= value);
const sign = (op: 'gt' | 'gte') => (op === 'gt' ? '>' : '≥');

/** The clauses of the conditions a sheet meets, e.g. "总分 172 > 160" / "Total score 172 > 160". */
function metClauses(c: ScreeningCondition, indicators: readonly IndicatorResult[]): LocalText[] {
  const pool = c.kind === 'indicator' ? indicators.filter((i) => i.code === c.indicator) : indicators.filter((i) => i.kind === 'factor');
  return pool
    .filter((i) => meets(i.score, c.op, c.value))
    .map((i) => ({ zh: `${i.name.zh} ${i.score} ${sign(c.op)} ${c.value}`, en: `${i.name.en || i.name.zh} ${i.score} ${sign(c.op)} ${c.value}` }));
}

/** Whether a sheet screens positive by one rule, with the clauses it met. */
export function screenBy(rule: ScreeningRuleDefinition, indicators: readonly IndicatorResult[]): LocalText[] {
  return rule.conditions.flatMap((c) => metClauses(c, indicators));
}

/** The warnings of the screening rules a (not void) sheet meets: one per rule, naming what it met. */
export function screeningWarnings(def: FormDefinition, indicators: readonly IndicatorResult[]): ScoreWarning[] {
  const out: ScoreWarning[] = [];
  for (const rule of def.screening) {
    const met = screenBy(rule, indicators);
    if (met.length === 0) continue;
    out.push({
      source: 'screening',
      warnlevel: rule.level,
      ruleSource: rule.source,
      reason: {
        zh: `${rule.reason.zh}（${met.map((m) => m.zh).join('；')}）`,
        en: `${rule.reason.en || rule.reason.zh} (${met.map((m) => m.en).join('; ')})`,
      },
    });
  }
  return out;
}

/** Cross-reference problems of the screening rules and conventions (unknown indicators, bad bands). */
export function ruleIssues(def: FormDefinition): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const add = (path: string, zh: string, en: string) => issues.push({ path, message: { zh, en } });
  const codes = new Set(def.indicators.map((i) => i.code));
  def.screening.forEach((r, i) => {
    for (const c of r.conditions)
      if (c.kind === 'indicator' && !codes.has(c.indicator))
        add(`screening.${i}`, `筛查规则指向不存在的指标 ${c.indicator}`, `screening rule on an unknown indicator ${c.indicator}`);
      else if (c.kind === 'anyFactor' && !def.indicators.some((x) => x.kind === 'factor'))
        add(`screening.${i}`, '筛查规则按“任一因子”判断，但量表没有因子', 'screening rule on "any factor", but the form has no factor');
  });
  const seen = new Set<string>();
  def.conventions.forEach((c, i) => {
    const p = `conventions.${i}`;
    if (seen.has(c.code)) add(p, `计分约定代码 ${c.code} 重复`, `convention code ${c.code} is used twice`);
    seen.add(c.code);
    if (def.conventions.some((x, j) => j < i && x.name.zh.trim() === c.name.zh.trim()))
      add(p, `计分约定名称“${c.name.zh}”重复`, `convention name "${c.name.zh}" is used twice`);
    const named = c.indicators.map((o) => o.code);
    for (const code of new Set(named.filter((x, j) => named.indexOf(x) !== j)))
      add(p, `计分约定 ${c.code} 重复替换指标 ${code}`, `convention ${c.code} replaces indicator ${code} twice`);
    const variant = withConvention(def, c);
    // The overall mental state reads bands: a convention cannot take them away from its indicators.
    for (const code of def.mentalState?.indicators ?? [])
      if (def.indicators.some((x) => x.code === code && x.bands.length > 0) && variant.indicators.find((x) => x.code === code)?.bands.length === 0)
        add(p, `计分约定 ${c.code} 去掉了心理状态规则所用指标 ${code} 的分段`, `convention ${c.code} removes the bands of indicator ${code}, which the mental-state rule reads`);
    for (const o of c.indicators) {
      const ind = variant.indicators.find((x) => x.code === o.code);
      if (!ind) {
        add(p, `计分约定 ${c.code} 指向不存在的指标 ${o.code}`, `convention ${c.code} names an unknown indicator ${o.code}`);
        continue;
      }
      for (const m of bandProblems(ind, indicatorRange(variant, ind)))
        add(p, `计分约定 ${c.code} 指标 ${o.code}：${m.zh}`, `convention ${c.code}, indicator ${o.code}: ${m.en}`);
    }
  });
  return issues;
}
