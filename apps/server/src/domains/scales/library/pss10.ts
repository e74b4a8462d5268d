/**
 * PSS-10, Perceived Stress Scale (知觉压力量表).
 * From the research note (assessment-domain.md §2): 10 items 0-4, items 4, 5, 7, 8 reversed,
 * sum 0-40; 0-13 low, 14-26 moderate, 27-40 high. Option labels: the published response scale.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, options, placeholderItems, t } from './build.js';

export const PSS10_REVERSED = [4, 5, 7, 8];

export const pss10: FormDefinitionInput = {
  formcode: 'PSS10',
  formname: t('知觉压力量表（PSS-10）', 'Perceived Stress Scale (PSS-10)'),
  formtype: '01',
  appids: ['000000001', '000000003'],
  instructions: t(
    '以下问题询问你在最近一个月内的感受和想法，请选择每种情况出现的频率。',
    'The questions ask about your feelings and thoughts during the last month; indicate how often you felt or thought a certain way.',
  ),
  version: 1,
  licence: t(
    '作者（Cohen）声明非商业的学术研究和教学使用无需许可（来源较弱）；商业服务中的使用未能确认，因此不内置条目原文，机构可在量表编辑器中补充。',
    'The author (Cohen) states that non-commercial academic research and teaching use needs no permission (weak source); use in a commercial service is not established, so the item wording is not carried; an institution adds it in the scale editor.',
  ),
  source:
    'Cohen S, Williamson G. Perceived stress in a probability sample of the United States. In: Spacapan S, Oskamp S (eds). The Social Psychology of Health. Sage, 1988.',
  fulltext: false,
  questions: placeholderItems(
    10,
    options([
      ['从不', 'Never', 0],
      ['几乎不', 'Almost never', 1],
      ['有时', 'Sometimes', 2],
      ['经常', 'Fairly often', 3],
      ['总是', 'Very often', 4],
    ]),
    { reverse: PSS10_REVERSED },
  ),
  indicators: [
    {
      code: 'TOTAL',
      name: t('总分', 'Total score'),
      kind: 'total',
      formula: { op: 'sum' },
      bands: [
        band(
          0,
          13,
          0,
          ['低压力', 'Low stress'],
          ['知觉压力水平较低。', 'Low perceived stress.'],
          ['保持现有的应对方式。', 'Keep your current coping.'],
        ),
        band(
          14,
          26,
          1,
          ['中等压力', 'Moderate stress'],
          ['知觉压力处于中等水平。', 'Moderate perceived stress.'],
          ['注意劳逸结合，学习减压方法。', 'Balance work and rest; learn stress-management skills.'],
        ),
        band(
          27,
          40,
          3,
          ['高压力', 'High stress'],
          ['知觉压力水平较高。', 'High perceived stress.'],
          ['建议寻求心理咨询支持。', 'Seek counselling support.'],
          true,
        ),
      ],
    },
  ],
  mentalState: { method: 'maxLevel', indicators: ['TOTAL'] },
};
