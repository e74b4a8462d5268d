/**
 * UCLA-3, Three-Item Loneliness Scale (UCLA 三条目孤独量表).
 * From the research note (assessment-domain.md §2): 3 items scored 1-3, sum 3-9; 3-5 not
 * lonely, 6-9 lonely. Option labels: the published response scale (Hughes et al. 2004).
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, options, placeholderItems, t } from './build.js';

export const ucla3: FormDefinitionInput = {
  formcode: 'UCLA3',
  formname: t('UCLA 三条目孤独量表（UCLA-3）', 'Three-Item Loneliness Scale (UCLA-3)'),
  formtype: '01',
  appids: ['000000004'],
  instructions: t(
    '以下问题询问你对生活中不同方面的感受，请选择每种感受出现的频率。',
    'The following questions ask how you feel about different aspects of your life; say how often you feel each way.',
  ),
  version: 1,
  licence: t(
    '出自 Hughes 等（2004），使用许可未说明，因此不内置条目原文；机构可在量表编辑器中补充其有权使用的题干文字。',
    'From Hughes et al. (2004); the licence is not stated, so the item wording is not carried; an institution adds wording it is entitled to use in the scale editor.',
  ),
  source:
    'Hughes ME, Waite LJ, Hawkley LC, Cacioppo JT. A short scale for measuring loneliness in large surveys. Res Aging 2004;26(6):655-672.',
  fulltext: false,
  questions: placeholderItems(
    3,
    options([
      ['几乎从不', 'Hardly ever', 1],
      ['有时', 'Some of the time', 2],
      ['经常', 'Often', 3],
    ]),
  ),
  indicators: [
    {
      code: 'TOTAL',
      name: t('总分', 'Total score'),
      kind: 'total',
      formula: { op: 'sum' },
      bands: [
        band(3, 5, 0, ['不孤独', 'Not lonely'], null, ['保持社交联系。', 'Keep up social contact.']),
        band(
          6,
          9,
          1,
          ['孤独', 'Lonely'],
          ['存在孤独感。', 'Feels lonely.'],
          ['鼓励参加社区活动，加强家庭和社会支持。', 'Encourage community activities and family and social support.'],
        ),
      ],
    },
  ],
  mentalState: { method: 'maxLevel', indicators: ['TOTAL'] },
};
