/**
 * Small builders for the built-in library definitions, so each instrument file reads like the
 * published scoring sheet rather than like JSON.
 */
import type { FormDefinitionInput, LocalText } from '@xinli/contract';

export type QuestionInput = FormDefinitionInput['questions'][number];
export type IndicatorInput = NonNullable<FormDefinitionInput['indicators']>[number];
export type BandInput = NonNullable<IndicatorInput['bands']>[number];
export type OptionInput = NonNullable<QuestionInput['options']>[number];

export const t = (zh: string, en = ''): LocalText => ({ zh, en });
const empty = t('', '');

/** Options from [zh, en, score] rows, in the order shown. */
export const options = (rows: [string, string, number][]): OptionInput[] => rows.map(([zh, en, score]) => ({ text: t(zh, en), score }));

/** A required single-choice question. */
export function single(no: number, text: LocalText, opts: OptionInput[], extra: Partial<QuestionInput> = {}): QuestionInput {
  return { no, type: 1, required: true, text, options: opts, ...extra };
}

/**
 * Placeholder questions 1..n for instruments whose item wording is not licensed to us: the label
 * is '第n题 / Item n'; the scoring (options, scores, reversal, factor) is complete, so the scale
 * scores correctly and an institution adds the licensed wording through the scale editor.
 */
export function placeholderItems(
  n: number,
  opts: OptionInput[],
  { reverse = [], factorOf }: { reverse?: number[]; factorOf?: (no: number) => string | undefined } = {},
): QuestionInput[] {
  return Array.from({ length: n }, (_, i) => {
    const no = i + 1;
    const factor = factorOf?.(no);
    return single(no, t(`第${no}题`, `Item ${no}`), opts, { reverse: reverse.includes(no), ...(factor ? { factor } : {}) });
  });
}

/** A score band. `texts` = [label, interpretation, advice], each [zh, en]. */
export function band(
  min: number,
  max: number,
  level: number,
  label: [string, string],
  interpretation: [string, string] | null,
  advice: [string, string] | null,
  raisesWarning = false,
): BandInput {
  return {
    min,
    max,
    level,
    label: t(...label),
    interpretation: interpretation ? t(...interpretation) : empty,
    advice: advice ? t(...advice) : empty,
    raisesWarning,
  };
}

export const range = (from: number, to: number, step = 1): number[] =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

/** The usual four-option frequency scale of the PHQ family (0-3). */
export const phqFrequency = options([
  ['完全不会', 'Not at all', 0],
  ['好几天', 'Several days', 1],
  ['一半以上的天数', 'More than half the days', 2],
  ['几乎每天', 'Nearly every day', 3],
]);

/** PHQ-9 / PHQ-A severity bands (Kroenke 2001): 0-4, 5-9, 10-14, 15-19, 20-27. */
export const phqBands: BandInput[] = [
  band(
    0,
    4,
    0,
    ['无抑郁症状', 'None-minimal'],
    ['目前没有明显的抑郁症状。', 'No notable depressive symptoms.'],
    ['保持规律作息和社交活动。', 'Keep regular routines and social contact.'],
  ),
  band(
    5,
    9,
    1,
    ['轻度抑郁', 'Mild'],
    ['存在轻度抑郁症状。', 'Mild depressive symptoms.'],
    ['观察等待，2-4 周后复评。', 'Watchful waiting; rescreen in 2-4 weeks.'],
  ),
  band(
    10,
    14,
    2,
    ['中度抑郁', 'Moderate'],
    ['存在中度抑郁症状，需要进一步评估。', 'Moderate depressive symptoms; further evaluation needed.'],
    ['建议心理咨询并由专业人员评估。', 'Counselling and a professional assessment are advised.'],
    true,
  ),
  band(
    15,
    19,
    3,
    ['中重度抑郁', 'Moderately severe'],
    ['存在中重度抑郁症状。', 'Moderately severe depressive symptoms.'],
    ['建议尽快到精神科或心理科就诊。', 'Refer to psychiatry or clinical psychology soon.'],
    true,
  ),
  band(
    20,
    27,
    4,
    ['重度抑郁', 'Severe'],
    ['存在重度抑郁症状。', 'Severe depressive symptoms.'],
    ['需立即转介精神科评估和治疗。', 'Immediate referral for psychiatric assessment and treatment.'],
    true,
  ),
];
