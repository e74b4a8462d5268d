/**
 * GAD-7, Generalized Anxiety Disorder-7 (广泛性焦虑量表).
 * Items, options and cut-offs 5/10/15: research note (assessment-domain.md §2) and the published
 * instrument (Spitzer et al. 2006); the Chinese wording is the widely used public translation.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { band, phqFrequency, single, t } from './build.js';

const items: [string, string][] = [
  ['感觉紧张、焦虑或急切', 'Feeling nervous, anxious, or on edge'],
  ['不能够停止或控制担忧', 'Not being able to stop or control worrying'],
  ['对各种各样的事情担忧过多', 'Worrying too much about different things'],
  ['很难放松下来', 'Trouble relaxing'],
  ['由于不安而无法静坐', "Being so restless that it's hard to sit still"],
  ['变得容易烦恼或急躁', 'Becoming easily annoyed or irritable'],
  ['感到似乎将有可怕的事情发生而害怕', 'Feeling afraid as if something awful might happen'],
];

export const gad7: FormDefinitionInput = {
  formcode: 'GAD7',
  formname: t('广泛性焦虑量表（GAD-7）', 'Generalized Anxiety Disorder-7 (GAD-7)'),
  formtype: '01',
  appids: ['000000001', '000000002', '000000003', '000000004'],
  instructions: t(
    '在过去两周里，你有多少时间受到以下任何问题的困扰？',
    'Over the last 2 weeks, how often have you been bothered by the following problems?',
  ),
  version: 1,
  licence: t(
    'GAD-7 由 Spitzer、Kroenke、Williams、Löwe 编制，公有领域，无需许可。',
    'Developed by Drs Spitzer, Kroenke, Williams and Löwe; public domain, no permission required.',
  ),
  source:
    'Spitzer RL, Kroenke K, Williams JBW, Löwe B. A brief measure for assessing generalized anxiety disorder: the GAD-7. Arch Intern Med 2006;166(10):1092-1097.',
  fulltext: true,
  questions: items.map(([zh, en], i) => single(i + 1, t(zh, en), phqFrequency)),
  indicators: [
    {
      code: 'TOTAL',
      name: t('总分', 'Total score'),
      kind: 'total',
      formula: { op: 'sum' },
      bands: [
        band(
          0,
          4,
          0,
          ['无明显焦虑', 'Minimal'],
          ['目前没有明显的焦虑症状。', 'No notable anxiety symptoms.'],
          ['保持良好作息。', 'Keep healthy routines.'],
        ),
        band(
          5,
          9,
          1,
          ['轻度焦虑', 'Mild'],
          ['存在轻度焦虑症状。', 'Mild anxiety symptoms.'],
          ['学习放松方法，2-4 周后复评。', 'Learn relaxation skills; rescreen in 2-4 weeks.'],
        ),
        band(
          10,
          14,
          2,
          ['中度焦虑', 'Moderate'],
          ['存在中度焦虑症状，需要进一步评估。', 'Moderate anxiety symptoms; further evaluation needed.'],
          ['建议心理咨询并由专业人员评估。', 'Counselling and a professional assessment are advised.'],
          true,
        ),
        band(
          15,
          21,
          4,
          ['重度焦虑', 'Severe'],
          ['存在重度焦虑症状。', 'Severe anxiety symptoms.'],
          ['建议尽快到精神科或心理科就诊。', 'Refer to psychiatry or clinical psychology soon.'],
          true,
        ),
      ],
    },
  ],
  mentalState: { method: 'maxLevel', indicators: ['TOTAL'] },
};
