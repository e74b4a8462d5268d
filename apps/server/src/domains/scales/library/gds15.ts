/**
 * GDS-15, Geriatric Depression Scale short form (老年抑郁量表简版).
 * Scoring (1 point for "No" on items 1, 5, 7, 11, 13 and for "Yes" on the others; >5 suggests
 * depression, >=10 almost always depression): research note (assessment-domain.md §2). Item
 * wording: the published English short form (Sheikh & Yesavage 1986); the Chinese wording is
 * our translation of it.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, options, single, t } from './build.js';

const items: [string, string][] = [
  ['您对自己的生活基本满意吗？', 'Are you basically satisfied with your life?'],
  ['您是否放弃了许多活动和兴趣爱好？', 'Have you dropped many of your activities and interests?'],
  ['您是否觉得生活空虚？', 'Do you feel that your life is empty?'],
  ['您是否常常感到厌烦？', 'Do you often get bored?'],
  ['您是否大部分时间精神都很好？', 'Are you in good spirits most of the time?'],
  ['您是否害怕会有不好的事情发生在自己身上？', 'Are you afraid that something bad is going to happen to you?'],
  ['您是否大部分时间都感到快乐？', 'Do you feel happy most of the time?'],
  ['您是否常常感到无助？', 'Do you often feel helpless?'],
  ['您是否宁愿待在家里，也不愿出门做些新鲜事？', 'Do you prefer to stay at home, rather than going out and doing new things?'],
  ['您是否觉得自己的记忆力比大多数人差？', 'Do you feel you have more problems with memory than most?'],
  ['您是否觉得现在活着很美好？', 'Do you think it is wonderful to be alive now?'],
  ['您是否觉得像现在这样活着毫无价值？', 'Do you feel pretty worthless the way you are now?'],
  ['您是否觉得精力充沛？', 'Do you feel full of energy?'],
  ['您是否觉得自己的处境没有希望？', 'Do you feel that your situation is hopeless?'],
  ['您是否觉得大多数人比您过得好？', 'Do you think that most people are better off than you are?'],
];

/** Items where "No" scores the point (the options are scored Yes = 1, so these are reversed). */
export const GDS15_NO_ITEMS = [1, 5, 7, 11, 13];

const yesNo = options([
  ['是', 'Yes', 1],
  ['否', 'No', 0],
]);

export const gds15: FormDefinitionInput = {
  formcode: 'GDS15',
  formname: t('老年抑郁量表简版（GDS-15）', 'Geriatric Depression Scale, short form (GDS-15)'),
  formtype: '01',
  appids: ['000000004'],
  instructions: t('请根据您过去一周的感受，选择“是”或“否”。', 'Choose the best answer for how you have felt over the past week.'),
  version: 1,
  licence: t('GDS 为公有领域，可自由使用。', 'The GDS is in the public domain.'),
  source:
    'Sheikh JI, Yesavage JA. Geriatric Depression Scale (GDS): recent evidence and development of a shorter version. Clin Gerontol 1986;5(1-2):165-173.',
  fulltext: true,
  questions: items.map(([zh, en], i) => single(i + 1, t(zh, en), yesNo, { reverse: GDS15_NO_ITEMS.includes(i + 1) })),
  indicators: [
    {
      code: 'TOTAL',
      name: t('总分', 'Total score'),
      kind: 'total',
      formula: { op: 'sum' },
      bands: [
        band(
          0,
          5,
          0,
          ['正常', 'Normal'],
          ['未见明显抑郁症状。', 'No notable depressive symptoms.'],
          ['保持社交和日常活动。', 'Keep up social and daily activities.'],
        ),
        {
          // Issue 31: 6-9 "should warrant a follow-up", so it raises an attention-level warning.
          ...band(
            6,
            9,
            1,
            ['可能抑郁，需随访', 'Suggests depression: warrants follow-up'],
            ['得分提示可能存在抑郁，需要随访。', 'The score suggests depression and warrants a follow-up.'],
            ['建议由专业人员进一步评估。', 'A professional follow-up assessment is advised.'],
            true,
          ),
          source: 'msdmanuals.com/professional/multimedia/table/geriatric-depression-scale-short-form',
        },
        band(
          10,
          15,
          3,
          ['很可能抑郁', 'Almost always depression'],
          ['得分几乎总是提示抑郁。', 'A score this high almost always indicates depression.'],
          ['建议尽快就诊并通知家属或照护者。', 'Refer promptly and inform family or carers.'],
          true,
        ),
      ],
    },
  ],
  mentalState: { method: 'maxLevel', indicators: ['TOTAL'] },
};
