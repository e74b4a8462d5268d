/**
 * SDS, Zung Self-rating Depression Scale (抑郁自评量表).
 * From the research note (assessment-domain.md §2): 20 items 1-4; items 2, 5, 6, 11, 12, 14, 16,
 * 17, 18, 20 reversed; standard score = int(raw x 1.25); Chinese norm cut-off 53: 53-62 mild,
 * 63-72 moderate, >72 severe. Item 19 ("others would be better off if I were dead") as a
 * critical item is the note's inference; we fire it from "some of the time" (score >= 2) because
 * the lowest option also means "none". Sources differ on the cut-offs (53 or 50) and on truncating
 * or rounding the conversion: the four combinations are conventions an institution chooses from.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, placeholderItems, t, type BandInput } from './build.js';
import { zungConventions, zungFrequency, zungLicence, zungRaw, zungStandard, type ZungCutoffs } from './zung.js';

export const SDS_REVERSED = [2, 5, 6, 11, 12, 14, 16, 17, 18, 20];

/** The SDS bands with the mild cut-off at `m` (moderate m + 10, severe m + 20). */
function sdsBands(m: number): BandInput[] {
  return [
    band(
      25,
      m - 1,
      0,
      ['无抑郁', 'No depression'],
      [`标准分低于${m}，未见明显抑郁。`, `Standard score below ${m}: no notable depression.`],
      ['保持良好作息。', 'Keep healthy routines.'],
    ),
    band(
      m,
      m + 9,
      1,
      ['轻度抑郁', 'Mild depression'],
      ['存在轻度抑郁症状。', 'Mild depressive symptoms.'],
      ['关注情绪变化，2-4 周后复评。', 'Watch mood; rescreen in 2-4 weeks.'],
    ),
    band(
      m + 10,
      m + 19,
      2,
      ['中度抑郁', 'Moderate depression'],
      ['存在中度抑郁症状。', 'Moderate depressive symptoms.'],
      ['建议心理咨询并由专业人员评估。', 'Counselling and a professional assessment are advised.'],
      true,
    ),
    band(
      m + 20,
      100,
      4,
      ['重度抑郁', 'Severe depression'],
      ['存在重度抑郁症状。', 'Severe depressive symptoms.'],
      ['建议尽快到精神科就诊。', 'Refer to psychiatry promptly.'],
      true,
    ),
  ];
}

/** Sources differ on the SDS cut-offs: the Chinese norm's 53 (the default) or 50. */
const SDS_CUTOFFS: ZungCutoffs[] = [
  {
    code: 'cn53',
    name: ['界值 53/63/73（中国常模）', 'cut-offs 53/63/73 (Chinese norm)'],
    source: '王春芳等 1986（中国常模）；wjx.cn/xz/144821812.aspx',
    bands: sdsBands(53),
  },
  {
    code: 'cut50',
    name: ['界值 50/60/70', 'cut-offs 50/60/70'],
    source: 'm.xcgcinfo.com/ms/43310.html',
    bands: sdsBands(50),
  },
];

export const sds: FormDefinitionInput = {
  formcode: 'SDS',
  formname: t('抑郁自评量表（SDS）', 'Zung Self-rating Depression Scale (SDS)'),
  formtype: '01',
  appids: ['000000001', '000000003'],
  instructions: t(
    '请根据你最近一周的实际感觉，选择最适合的答案。',
    'Choose the answer that best fits how you have felt during the past week.',
  ),
  version: 1,
  licence: zungLicence,
  source: 'Zung WWK. A self-rating depression scale. Arch Gen Psychiatry 1965;12:63-70. Chinese norm: 王春芳等 1986 (cut-off 53).',
  fulltext: false,
  questions: placeholderItems(20, zungFrequency, { reverse: SDS_REVERSED }),
  indicators: [
    zungRaw,
    zungStandard(sdsBands(53)),
  ],
  conventions: zungConventions(SDS_CUTOFFS),
  critical: [
    {
      no: 19,
      minScore: 2,
      reason: t(
        '第19题（觉得自己死了别人会过得更好）选择“小部分时间”及以上，需及时随访评估。',
        'Item 19 (others would be better off if I were dead) at "some of the time" or more: follow up promptly.',
      ),
    },
  ],
  mentalState: { method: 'maxLevel', indicators: ['STD'] },
};
