/**
 * SCL-90, Symptom Checklist-90 (症状自评量表), Chinese 1-5 scoring.
 * From the research note (assessment-domain.md §2): 90 items scored 1-5; 10 factors (9 plus
 * "other", 7 items); factor score = factor total / its item count; screen positive on the
 * Chinese norm if total > 160, or positive items (score >= 2) > 43, or any factor >= 2.
 * From general knowledge of the published instrument (Derogatis; Chinese version 王征宇 1984):
 * the factor item lists below, and the factor grading 2-2.99 mild, 3-3.99 moderate, >= 4 severe.
 * Issue 31: a sheet positive by that rule (any factor read over all ten, "other" included) raises
 * an attention-level warning (the `screening` rule below); the factor bands from 3 up still warn
 * as before. "Other" (sleep and appetite) does not decide the mental state. The report also
 * carries the negative-item count and the positive-symptom mean (PSDI) beside the total.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, options, placeholderItems, t, type IndicatorInput } from './build.js';

export const SCL90_FACTORS: { code: string; zh: string; en: string; items: number[]; clinical: boolean }[] = [
  { code: 'SOM', zh: '躯体化', en: 'Somatization', items: [1, 4, 12, 27, 40, 42, 48, 49, 52, 53, 56, 58], clinical: true },
  { code: 'OC', zh: '强迫症状', en: 'Obsessive-compulsive', items: [3, 9, 10, 28, 38, 45, 46, 51, 55, 65], clinical: true },
  { code: 'IS', zh: '人际关系敏感', en: 'Interpersonal sensitivity', items: [6, 21, 34, 36, 37, 41, 61, 69, 73], clinical: true },
  { code: 'DEP', zh: '抑郁', en: 'Depression', items: [5, 14, 15, 20, 22, 26, 29, 30, 31, 32, 54, 71, 79], clinical: true },
  { code: 'ANX', zh: '焦虑', en: 'Anxiety', items: [2, 17, 23, 33, 39, 57, 72, 78, 80, 86], clinical: true },
  { code: 'HOS', zh: '敌对', en: 'Hostility', items: [11, 24, 63, 67, 74, 81], clinical: true },
  { code: 'PHOB', zh: '恐怖', en: 'Phobic anxiety', items: [13, 25, 47, 50, 70, 75, 82], clinical: true },
  { code: 'PAR', zh: '偏执', en: 'Paranoid ideation', items: [8, 18, 43, 68, 76, 83], clinical: true },
  { code: 'PSY', zh: '精神病性', en: 'Psychoticism', items: [7, 16, 35, 62, 77, 84, 85, 87, 88, 90], clinical: true },
  { code: 'OTH', zh: '其他（睡眠及饮食）', en: 'Other (sleep and appetite)', items: [19, 44, 59, 60, 64, 66, 89], clinical: false },
];

/** Screen-positive thresholds of the Chinese norm (1-5 scoring). */
export const SCL90_RULES = { totalAbove: 160, positiveItemScore: 2, positiveCountAbove: 43, factorAtLeast: 2 };

const factorOf = (no: number) => SCL90_FACTORS.find((f) => f.items.includes(no))?.code;

const factorIndicator = (f: (typeof SCL90_FACTORS)[number]): IndicatorInput => ({
  code: f.code,
  name: t(f.zh, f.en),
  kind: 'factor',
  formula: { op: 'mean' },
  precision: 2,
  bands: [
    band(1, 1.99, 0, ['正常', 'Normal'], [`${f.zh}因子分低于2。`, `${f.en} factor below 2.`], null),
    band(
      2,
      2.99,
      1,
      ['轻度', 'Mild'],
      [`${f.zh}方面存在轻度症状。`, `Mild ${f.en.toLowerCase()} symptoms.`],
      ['建议关注并进行心理辅导。', 'Attention and counselling are advised.'],
    ),
    band(
      3,
      3.99,
      2,
      ['中度', 'Moderate'],
      [`${f.zh}方面存在中度症状。`, `Moderate ${f.en.toLowerCase()} symptoms.`],
      ['建议由专业人员进一步评估。', 'A professional assessment is advised.'],
      true,
    ),
    band(
      4,
      5,
      4,
      ['重度', 'Severe'],
      [`${f.zh}方面存在重度症状。`, `Severe ${f.en.toLowerCase()} symptoms.`],
      ['建议尽快到精神科就诊。', 'Refer to psychiatry promptly.'],
      true,
    ),
  ],
});

export const scl90: FormDefinitionInput = {
  formcode: 'SCL90',
  formname: t('症状自评量表（SCL-90）', 'Symptom Checklist-90 (SCL-90)'),
  formtype: '01',
  appids: ['000000002', '000000003'],
  instructions: t(
    '以下列出了有些人可能会有的问题，请根据最近一周（包括今天）下列问题影响你的实际程度作答。',
    'Below is a list of problems people sometimes have; indicate how much each has distressed or bothered you during the past week, including today.',
  ),
  version: 1,
  licence: t(
    'SCL-90-R © Pearson（C 级资质）。不内置条目原文；机构取得许可后，在量表编辑器中补充各题题干。',
    'SCL-90-R © Pearson (qualification level C). The item wording is not carried; an institution holding a licence adds it in the scale editor.',
  ),
  source:
    'Derogatis LR, Lipman RS, Covi L. SCL-90: an outpatient psychiatric rating scale. Psychopharmacol Bull 1973;9(1):13-28. Chinese version and norm: 王征宇 1984; 金华等 1986.',
  fulltext: false,
  questions: placeholderItems(
    90,
    options([
      ['没有', 'Not at all', 1],
      ['很轻', 'A little bit', 2],
      ['中等', 'Moderately', 3],
      ['偏重', 'Quite a bit', 4],
      ['严重', 'Extremely', 5],
    ]),
    { factorOf },
  ),
  indicators: [
    {
      code: 'TOTAL',
      name: t('总分', 'Total score'),
      kind: 'total',
      formula: { op: 'sum' },
      bands: [
        band(90, 160, 0, ['未达阳性', 'Below screening threshold'], ['总分不超过160。', 'Total at most 160.'], null),
        band(
          161,
          450,
          1,
          ['筛查阳性', 'Screen positive'],
          ['总分超过160，提示可能存在心理问题。', 'Total above 160: a possible mental-health problem.'],
          ['建议由专业人员进一步评估。', 'A professional assessment is advised.'],
        ),
      ],
    },
    { code: 'GSI', name: t('总均分', 'Total mean'), kind: 'total', formula: { op: 'mean' }, precision: 2 },
    {
      code: 'PCOUNT',
      name: t('阳性项目数', 'Positive items'),
      kind: 'total',
      formula: { op: 'countAtLeast', value: SCL90_RULES.positiveItemScore },
      bands: [
        band(0, 43, 0, ['未达阳性', 'Below screening threshold'], ['阳性项目数不超过43。', 'At most 43 positive items.'], null),
        band(
          44,
          90,
          1,
          ['筛查阳性', 'Screen positive'],
          ['阳性项目数超过43。', 'More than 43 positive items.'],
          ['建议由专业人员进一步评估。', 'A professional assessment is advised.'],
        ),
      ],
    },
    {
      code: 'NCOUNT',
      name: t('阴性项目数', 'Negative items'),
      kind: 'total',
      formula: { op: 'countBelow', value: SCL90_RULES.positiveItemScore },
    },
    {
      code: 'PSDI',
      name: t('阳性症状均分', 'Positive symptom distress index'),
      kind: 'total',
      formula: { op: 'meanAtLeast', value: SCL90_RULES.positiveItemScore },
      precision: 2,
    },
    ...SCL90_FACTORS.map(factorIndicator),
  ],
  screening: [
    {
      name: t('SCL-90 筛查阳性', 'SCL-90 screen positive'),
      level: 'attention',
      conditions: [
        { kind: 'indicator', indicator: 'TOTAL', op: 'gt', value: SCL90_RULES.totalAbove },
        { kind: 'indicator', indicator: 'PCOUNT', op: 'gt', value: SCL90_RULES.positiveCountAbove },
        { kind: 'anyFactor', op: 'gte', value: SCL90_RULES.factorAtLeast },
      ],
      reason: t('SCL-90 筛查阳性，建议进一步评估', 'SCL-90 screens positive: a further assessment is advised'),
      source: '金华, 吴文源, 张明园 1986（中国常模）；筛查规则：m.fanque.com.cn/aa60aAW4DB1FRCQ.html',
    },
  ],
  mentalState: {
    method: 'maxLevel',
    indicators: ['TOTAL', 'PCOUNT', ...SCL90_FACTORS.filter((f) => f.clinical).map((f) => f.code)],
  },
};
