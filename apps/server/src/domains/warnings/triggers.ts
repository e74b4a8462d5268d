import { levelWord, type LocalText, type ScoreResult, type WarningKind, type WarningLevel, type WarningSettings } from '@xinli/contract';
import { type ChangeBasis, reliableChange } from '../scales/index.js';

/**
 * The triggers, as pure functions: what warnings a stored report raises, whether a given
 * assessment has missed its deadline, and how a reason reads in either language. The form
 * definitions say what is critical (`critical` rules) and which bands raise a warning
 * (`raisesWarning`) and which screening rules warn at which level; scoring reports them in
 * `ScoreResult.warnings`, so no form code is named here.
 */

export interface Trigger {
  kind: WarningKind;
  level: WarningLevel;
  /** Reason parameters; `text` (both languages) is what a form definition wrote. */
  params: Record<string, unknown>;
}

/** The figures of a report that worsening compares: the first total's score and the report's highest band level. */
export interface Headline {
  score: number | null;
  level: number | null;
}

/** A band level at or above this is a critical band warning; lower bands raise attention. */
export const CRITICAL_BAND_LEVEL = 4;

/** `code`: the indicator a form's reliable-change rule names (issue 31 §3); else the first total. */
export function headlineOf(score: ScoreResult, code?: string): Headline {
  const total = (code && score.indicators.find((i) => i.code === code)) || (score.indicators.find((i) => i.kind === 'total') ?? score.indicators[0]);
  const levels = score.indicators.map((i) => i.level).filter((l): l is number => l !== null);
  return { score: total ? total.score : null, level: levels.length ? Math.max(...levels) : null };
}

/**
 * Critical items and warning bands of one report, as scoring found them: at most one warning of
 * each kind per report (a long inventory can put ten factors in warning bands; staff read that as
 * one finding with its list, not ten). A band at CRITICAL_BAND_LEVEL or above makes it critical.
 */
export function scoreTriggers(score: ScoreResult): Trigger[] {
  const critical = score.warnings.filter((w) => w.source === 'critical');
  const bands = score.warnings.filter((w) => w.source === 'band');
  const screening = score.warnings.filter((w) => w.source === 'screening');
  const out: Trigger[] = [];
  if (critical.length)
    out.push({ kind: 'critical_item', level: 'critical', params: { items: critical.map((w) => ({ no: w.no, text: w.reason })) } });
  if (bands.length)
    out.push({
      kind: 'band',
      level: bands.some((w) => (w.level ?? 0) >= CRITICAL_BAND_LEVEL) ? 'critical' : 'attention',
      params: { items: bands.map((w) => ({ indicator: w.indicator, bandlevel: w.level ?? null, text: w.reason })) },
    });
  // A screening rule names its own level (the SCL-90 Chinese rule: attention).
  if (screening.length)
    out.push({
      kind: 'screening',
      level: screening.some((w) => w.warnlevel === 'critical') ? 'critical' : 'attention',
      params: { items: screening.map((w) => ({ text: w.reason, source: w.ruleSource ?? '' })) },
    });
  return out;
}

/**
 * Worsening against the person's previous report of the same form: the score rose by at least
 * `worsenpoints`, or the highest band level by at least `worsenlevels` (either set to 0 is off).
 * Where the form's norm has a reliable-change rule (`basis`, issue 31 §3) the index replaces the
 * fixed points (also when they are off): a reliable deterioration worsens, a change within the
 * index does not.
 * A void sheet on either side compares nothing.
 */
export function worseningTrigger(
  current: Headline & { voided: boolean },
  previous: (Headline & { voided: boolean }) | null,
  settings: Pick<WarningSettings, 'worsenpoints' | 'worsenlevels'>,
  basis: ChangeBasis | null = null,
): Trigger | null {
  if (!previous || previous.voided || current.voided) return null;
  const scored = current.score !== null && previous.score !== null;
  const change = basis && scored ? reliableChange(basis.rule, basis.sd, previous.score!, current.score!) : null;
  const points = scored ? current.score! - previous.score! : null;
  const levels = current.level !== null && previous.level !== null ? current.level - previous.level : null;
  // The index is the instrument's own criterion: it applies whatever the institution's fixed points say.
  const byPoints = change ? change.label === 'deteriorated' : settings.worsenpoints > 0 && points !== null && points >= settings.worsenpoints;
  const byLevel = settings.worsenlevels > 0 && levels !== null && levels >= settings.worsenlevels;
  if (!byPoints && !byLevel) return null;
  const reliable = change?.label === 'deteriorated' ? { rci: change.rci, crossing: change.crossing } : {};
  return {
    kind: 'worsening',
    level: 'attention',
    params: { from: previous.score, to: current.score, fromlevel: previous.level, tolevel: current.level, ...reliable },
  };
}

/** Every trigger of a stored report. */
export function reportTriggers(
  score: ScoreResult,
  previous: (Headline & { voided: boolean }) | null,
  settings: Pick<WarningSettings, 'worsenpoints' | 'worsenlevels'>,
  basis: ChangeBasis | null = null,
): Trigger[] {
  const worse = worseningTrigger({ ...headlineOf(score, basis?.rule.code), voided: score.voided }, previous, settings, basis);
  return [...scoreTriggers(score), ...(worse ? [worse] : [])];
}

/** A given assessment not finished `misseddays` after it was given has missed its deadline (0: off). */
export function isMissed(givenAt: Date, finished: boolean, misseddays: number, now: Date): boolean {
  return !finished && misseddays > 0 && now.getTime() - givenAt.getTime() >= misseddays * 86_400_000;
}

/** The missed-deadline trigger of one given assessment. */
export function missedTrigger(misseddays: number): Trigger {
  return { kind: 'missed', level: 'attention', params: { days: misseddays } };
}

/** The higher of two levels. */
export const higher = (a: WarningLevel, b: WarningLevel): WarningLevel => (a === 'critical' || b === 'critical' ? 'critical' : 'attention');

const pick = (t: unknown, en: boolean): string => {
  const x = t as LocalText | undefined;
  return x ? (en ? x.en || x.zh : x.zh) : '';
};

/** A rule's text as a clause: trimmed, without its closing stop. */
const clause = (text: string): string => text.trim().replace(/[。．.；;，,！!\s]+$/u, '');

/** A warning's reason in the reader's language. */
export function reasonText(kind: WarningKind, params: Record<string, unknown>, en: boolean): string {
  const p = params as Record<string, number | string | null | undefined>;
  const items = (params.items ?? []) as { no?: number; text?: LocalText }[];
  switch (kind) {
    // The kind is shown beside the reason (a tag, a column): the reason says only what the rules
    // say, each once, without its closing stop so that joining never doubles punctuation.
    case 'critical_item':
      return items.map((i) => clause(pick(i.text, en)) || (en ? `Item ${i.no}` : `第${i.no}题`)).join(en ? '; ' : '；');
    case 'band':
    case 'screening':
      return items.map((i) => clause(pick(i.text, en))).join(en ? '; ' : '；');
    case 'worsening': {
      const parts: string[] = [];
      if (typeof p.rci === 'number') parts.push(en ? `reliable deterioration, RCI ${p.rci.toFixed(2)}` : `可靠恶化，RCI ${p.rci.toFixed(2)}`);
      if (p.crossing === 'into') parts.push(en ? 'crossed the clinical cut-off' : '越过临床界值');
      if (p.from !== null && p.to !== null) parts.push(en ? `total ${p.from} → ${p.to}` : `总分 ${p.from} → ${p.to}`);
      if (p.fromlevel !== null && p.tolevel !== null) {
        const word = (l: unknown) => levelWord(Number(l), en ? 'en-US' : 'zh-CN');
        parts.push(en ? `level ${word(p.fromlevel)} → ${word(p.tolevel)}` : `等级 ${word(p.fromlevel)} → ${word(p.tolevel)}`);
      }
      return en ? `Worse than the previous report of this form (${parts.join(', ')})` : `较上次同一量表加重（${parts.join('，')}）`;
    }
    case 'missed':
      return en ? `Assessment not finished ${p.days} days after it was given` : `测评发放${p.days}天后仍未完成`;
    case 'manual':
      return en ? `Flagged by staff: ${p.note ?? ''}` : `工作人员标记：${p.note ?? ''}`;
  }
}
