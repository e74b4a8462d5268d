/**
 * EPDS, Edinburgh Postnatal Depression Scale (爱丁堡产后抑郁量表).
 * From the research note (assessment-domain.md §2): 10 items scored 0-3, items 3 and 5-10
 * reversed, sum 0-30; Chinese practice and the 2019 Chinese consensus: 10-12 rescreen in 2-4
 * weeks, >=13 further assessment; item 10 (self-harm) > 0 always needs further assessment.
 * Option positions follow the printed form: on a reversed item the first printed option scores 3.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, options, placeholderItems, t } from './build.js';

export const EPDS_REVERSED = [3, 5, 6, 7, 8, 9, 10];

export const epds: FormDefinitionInput = {
  formcode: 'EPDS',
  formname: t('爱丁堡产后抑郁量表（EPDS）', 'Edinburgh Postnatal Depression Scale (EPDS)'),
  formtype: '01',
  appids: ['000000001'],
  instructions: t(
    '请选择最能反映你过去7天感受的答案。',
    'Please choose the answer that comes closest to how you have felt in the past 7 days.',
  ),
  version: 1,
  licence: t(
    'EPDS © 英国皇家精神科医学院（RCPsych）。个人复印使用允许，分发或在线再发布需书面许可，因此不内置条目原文：机构取得许可后，可在量表编辑器中补充各题题干和选项文字（选项顺序须与印刷版一致）。',
    'EPDS © Royal College of Psychiatrists. Copying for own use is allowed; distribution or online republication needs written permission, so the item wording is not carried. An institution holding permission adds the item and option texts in the scale editor (options in the printed order).',
  ),
  source:
    'Cox JL, Holden JM, Sagovsky R. Detection of postnatal depression: development of the 10-item Edinburgh Postnatal Depression Scale. Br J Psychiatry 1987;150:782-786. Chinese cut-offs: Lee DT et al. 1998 (Hong Kong); 2019 Chinese perinatal depression screening consensus.',
  fulltext: false,
  questions: placeholderItems(
    10,
    options([
      ['选项1', 'Option 1', 0],
      ['选项2', 'Option 2', 1],
      ['选项3', 'Option 3', 2],
      ['选项4', 'Option 4', 3],
    ]),
    { reverse: EPDS_REVERSED },
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
          9,
          0,
          ['无明显抑郁', 'No notable depression'],
          ['目前未见明显抑郁症状。', 'No notable depressive symptoms.'],
          ['按孕产期常规时点继续筛查。', 'Continue routine perinatal screening.'],
        ),
        band(
          10,
          12,
          1,
          ['可能抑郁', 'Possible depression'],
          ['存在一定抑郁症状。', 'Some depressive symptoms.'],
          ['2-4 周后复筛。', 'Rescreen in 2-4 weeks.'],
        ),
        band(
          13,
          30,
          3,
          ['抑郁可能性大', 'Probable depression'],
          ['很可能存在抑郁。', 'Depression is probable.'],
          ['需进一步评估，必要时转诊精神科。', 'Further assessment; refer to psychiatry when indicated.'],
          true,
        ),
      ],
    },
  ],
  critical: [
    {
      no: 10,
      minScore: 1,
      reason: t(
        '第10题（伤害自己的念头）得分大于0，无论总分多少均需进一步评估。',
        'Item 10 (thoughts of harming herself) above 0: further assessment is needed whatever the total.',
      ),
    },
  ],
  mentalState: { method: 'maxLevel', indicators: ['TOTAL'] },
};
