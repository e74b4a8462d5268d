/**
 * MHT, Mental Health Test (心理健康诊断测验), 周步成 (ECNU) revision of the Japanese 不安倾向诊断测验.
 * From the research note (assessment-domain.md §2): 100 yes/no items (是 = 1, 否 = 0); eight
 * content scales; the validity (lie) scale is items 82, 84, ..., 100 and a lie score >= 7 voids
 * the sheet (retest); total = sum of the 90 content items; a content scale >= 8 is high.
 * Issue 31: the total gets the bands four public implementations use (>= 65 high; the middle band
 * 56-64 of one of them, norms.md "MHT"), and items 85 and 97 are critical items (a "yes" warns
 * whatever the total, even on a void sheet), as the public implementations treat them.
 * From general knowledge of the published instrument: the item lists of the eight content scales
 * (learning anxiety 1-15, social anxiety 16-25, loneliness 26-35, self-blame 36-45,
 * sensitivity 46-55, physical symptoms 56-70, phobia 71-80, impulsivity the odd items 81-99).
 * The manual applies ">= 8" to norm-based standard scores; without the norm tables we apply it
 * to the raw content-scale score, which an institution may refine in the scale editor.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, options, placeholderItems, range, t, type BandInput, type IndicatorInput } from './build.js';

export const MHT_LIE_ITEMS = range(82, 100, 2);
export const MHT_LIE_VOID_AT = 7;
export const MHT_HIGH_AT = 8;
/** Total anxiety tendency: >= 65 high, 56-64 the middle band (see the header). */
export const MHT_TOTAL_HIGH_AT = 65;
export const MHT_TOTAL_MIDDLE_AT = 56;
/** Suicide items: 85 "你有时是否会觉得，还是死了好？", 97 "你是否经常想从高的地方跳下来？". */
export const MHT_CRITICAL_ITEMS = [85, 97];
const MHT_RULE_SOURCE = '公开的 MHT 实现（yxjyw.cn/lxjk/xljk/31753.html；test007.cn/page96?article_id=15）；手册按年级、性别的标准分表未公开';

export const MHT_SCALES: { code: string; zh: string; en: string; items: number[] }[] = [
  { code: 'LEARN', zh: '学习焦虑', en: 'Learning anxiety', items: range(1, 15) },
  { code: 'SOCIAL', zh: '对人焦虑', en: 'Social anxiety', items: range(16, 25) },
  { code: 'LONELY', zh: '孤独倾向', en: 'Loneliness', items: range(26, 35) },
  { code: 'BLAME', zh: '自责倾向', en: 'Self-blame', items: range(36, 45) },
  { code: 'SENSE', zh: '过敏倾向', en: 'Sensitivity', items: range(46, 55) },
  { code: 'BODY', zh: '身体症状', en: 'Physical symptoms', items: range(56, 70) },
  { code: 'PHOBIA', zh: '恐怖倾向', en: 'Phobia', items: range(71, 80) },
  { code: 'IMPULSE', zh: '冲动倾向', en: 'Impulsivity', items: range(81, 99, 2) },
];

const factorOf = (no: number) => (MHT_LIE_ITEMS.includes(no) ? 'LIE' : MHT_SCALES.find((s) => s.items.includes(no))?.code);

const scaleIndicator = (s: (typeof MHT_SCALES)[number]): IndicatorInput => ({
  code: s.code,
  name: t(s.zh, s.en),
  kind: 'factor',
  formula: { op: 'sum' },
  bands: [
    band(0, MHT_HIGH_AT - 1, 0, ['正常', 'Normal'], [`${s.zh}在正常范围内。`, `${s.en} within the normal range.`], null),
    band(
      MHT_HIGH_AT,
      s.items.length,
      2,
      ['偏高', 'High'],
      [`${s.zh}得分偏高，该方面可能存在问题。`, `High ${s.en.toLowerCase()}: a possible problem in this area.`],
      [
        '建议班主任和心理老师关注，必要时进行个别辅导。',
        'Class teacher and school counsellor should follow up; individual counselling when needed.',
      ],
      true,
    ),
  ],
});

/** Bands of the total (0-90), each citing where its cut-off comes from. */
function totalBands(): BandInput[] {
  const cite = (b: BandInput): BandInput => ({ ...b, source: MHT_RULE_SOURCE });
  return [
    band(0, MHT_TOTAL_MIDDLE_AT - 1, 0, ['正常', 'Normal'], ['总焦虑倾向在正常范围内。', 'Total anxiety tendency within the normal range.'], null),
    band(
      MHT_TOTAL_MIDDLE_AT,
      MHT_TOTAL_HIGH_AT - 1,
      1,
      ['偏高', 'Raised'],
      ['总焦虑倾向偏高，需要关注。', 'Raised total anxiety tendency: keep an eye on it.'],
      ['建议班主任留意，必要时与心理老师沟通。', 'The class teacher should keep an eye on it and talk to the counsellor when needed.'],
    ),
    band(
      MHT_TOTAL_HIGH_AT,
      90,
      2,
      ['高', 'High'],
      ['总焦虑倾向高，存在较明显的焦虑。', 'High total anxiety tendency: marked anxiety.'],
      ['建议心理老师进行个别辅导，必要时转介专业机构。', 'Individual counselling by the school counsellor; refer to a professional when needed.'],
      true,
    ),
  ].map(cite);
}

export const mht: FormDefinitionInput = {
  formcode: 'MHT',
  formname: t('心理健康诊断测验（MHT）', 'Mental Health Test (MHT)'),
  formtype: '01',
  appids: ['000000002'],
  instructions: t('请根据你的真实情况，对每道题回答“是”或“否”。', 'Answer "yes" or "no" to each item as it really is for you.'),
  version: 1,
  licence: t(
    'MHT 由华东师范大学周步成等修订，版权归修订者所有，因此不内置条目原文；机构取得许可后，在量表编辑器中补充各题题干。适用于小学四年级至高中学生。',
    'Revised by Zhou Bucheng et al. (East China Normal University), who hold the rights, so the item wording is not carried; an institution holding permission adds it in the scale editor. For grade 4 to senior high school.',
  ),
  source: '周步成等. 心理健康诊断测验（MHT）手册. 华东师范大学心理学系, 1991.',
  fulltext: false,
  questions: placeholderItems(
    100,
    options([
      ['是', 'Yes', 1],
      ['否', 'No', 0],
    ]),
    { factorOf },
  ),
  indicators: [
    {
      code: 'TOTAL',
      name: t('总焦虑倾向', 'Total anxiety tendency'),
      kind: 'total',
      items: MHT_SCALES.flatMap((s) => s.items),
      formula: { op: 'sum' },
      bands: totalBands(),
    },
    ...MHT_SCALES.map(scaleIndicator),
    { code: 'LIE', name: t('效度量表', 'Validity (lie) scale'), kind: 'factor', formula: { op: 'sum' } },
  ],
  validity: [
    {
      indicator: 'LIE',
      op: 'gte',
      value: MHT_LIE_VOID_AT,
      message: t(
        '效度量表得分≥7，答卷不可信，本次测验无效，需重新施测。',
        'Validity (lie) scale score 7 or more: the answers are not credible, the test is void and must be retaken.',
      ),
    },
  ],
  critical: MHT_CRITICAL_ITEMS.map((no) => ({
    no,
    options: [1],
    reason: t(`第${no}题（自杀相关条目）回答“是”，需立即关注并评估。`, `Item ${no} (a suicide item) answered "yes": attend to it and assess at once.`),
    source: MHT_RULE_SOURCE,
  })),
  mentalState: { method: 'maxLevel', indicators: ['TOTAL', ...MHT_SCALES.map((s) => s.code)] },
};
