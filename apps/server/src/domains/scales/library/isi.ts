/**
 * ISI, Insomnia Severity Index (失眠严重程度指数).
 * From the research note (assessment-domain.md §2): 7 items 0-4, sum 0-28; 0-7 no clinically
 * significant insomnia, 8-14 subthreshold, 15-21 moderate, 22-28 severe.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, options, placeholderItems, t } from './build.js';

export const isi: FormDefinitionInput = {
  formcode: 'ISI',
  formname: t('失眠严重程度指数（ISI）', 'Insomnia Severity Index (ISI)'),
  formtype: '01',
  appids: ['000000003', '000000004'],
  instructions: t('请根据最近两周的睡眠情况作答。', 'Please rate your sleep over the last 2 weeks.'),
  version: 1,
  licence: t(
    'ISI © Charles M. Morin，由 Mapi Research Trust 发放使用许可，因此不内置条目原文；机构取得许可后，在量表编辑器中补充题干和选项文字。',
    'ISI © Charles M. Morin, licensed through Mapi Research Trust, so the item wording is not carried; an institution holding a licence adds the item and option texts in the scale editor.',
  ),
  source:
    'Bastien CH, Vallières A, Morin CM. Validation of the Insomnia Severity Index as an outcome measure for insomnia research. Sleep Med 2001;2(4):297-307.',
  fulltext: false,
  questions: placeholderItems(
    7,
    options([
      ['0分', '0 points', 0],
      ['1分', '1 point', 1],
      ['2分', '2 points', 2],
      ['3分', '3 points', 3],
      ['4分', '4 points', 4],
    ]),
  ),
  indicators: [
    {
      code: 'TOTAL',
      name: t('总分', 'Total score'),
      kind: 'total',
      formula: { op: 'sum' },
      bands: [
        band(0, 7, 0, ['无临床意义的失眠', 'No clinically significant insomnia'], null, ['保持良好睡眠习惯。', 'Keep good sleep habits.']),
        band(8, 14, 1, ['亚临床失眠', 'Subthreshold insomnia'], null, [
          '改善睡眠卫生，必要时复评。',
          'Improve sleep hygiene; rescreen if needed.',
        ]),
        band(15, 21, 2, ['中度临床失眠', 'Clinical insomnia, moderate'], null, [
          '建议到睡眠门诊或心理科就诊。',
          'See a sleep clinic or psychologist.',
        ]),
        band(22, 28, 4, ['重度临床失眠', 'Clinical insomnia, severe'], null, ['建议尽快就诊。', 'Seek treatment promptly.'], true),
      ],
    },
  ],
  mentalState: { method: 'maxLevel', indicators: ['TOTAL'] },
};
