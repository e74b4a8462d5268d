/**
 * PHQ-9, Patient Health Questionnaire-9 (患者健康问卷抑郁量表).
 * Items, options, bands and the item-9 rule: research note (assessment-domain.md §2) and the
 * published instrument (Kroenke, Spitzer & Williams 2001). The Chinese wording is the widely used
 * public translation; item 10 (difficulty) is asked but not scored.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { options, phqBands, phqFrequency, single, t } from './build.js';

const items: [string, string][] = [
  ['做事时提不起劲或没有兴趣', 'Little interest or pleasure in doing things'],
  ['感到心情低落、沮丧或绝望', 'Feeling down, depressed, or hopeless'],
  ['入睡困难、睡不安稳或睡眠过多', 'Trouble falling or staying asleep, or sleeping too much'],
  ['感觉疲倦或没有活力', 'Feeling tired or having little energy'],
  ['食欲不振或吃太多', 'Poor appetite or overeating'],
  [
    '觉得自己很糟，或觉得自己很失败，或让自己或家人失望',
    'Feeling bad about yourself, or that you are a failure or have let yourself or your family down',
  ],
  ['对事物专注有困难，例如阅读报纸或看电视时', 'Trouble concentrating on things, such as reading the newspaper or watching television'],
  [
    '动作或说话速度缓慢到别人已经察觉？或正好相反，烦躁或坐立不安、动来动去的情况比平常更严重',
    'Moving or speaking so slowly that other people could have noticed? Or the opposite, being so fidgety or restless that you have been moving around a lot more than usual',
  ],
  ['有不如死掉或用某种方式伤害自己的念头', 'Thoughts that you would be better off dead or of hurting yourself in some way'],
];

export const phq9: FormDefinitionInput = {
  formcode: 'PHQ9',
  formname: t('患者健康问卷抑郁量表（PHQ-9）', 'Patient Health Questionnaire-9 (PHQ-9)'),
  formtype: '01',
  appids: ['000000001', '000000003', '000000004'],
  instructions: t(
    '在过去两周里，你有多少时间受到以下任何问题的困扰？',
    'Over the last 2 weeks, how often have you been bothered by any of the following problems?',
  ),
  version: 1,
  licence: t(
    'PHQ-9 由 Spitzer、Williams、Kroenke 等在辉瑞公司资助下编制，公有领域，复制、翻译、展示和分发无需许可。',
    'Developed by Drs Spitzer, Williams, Kroenke and colleagues with an educational grant from Pfizer; public domain, no permission required to reproduce, translate, display or distribute.',
  ),
  source:
    'Kroenke K, Spitzer RL, Williams JB. The PHQ-9: validity of a brief depression severity measure. J Gen Intern Med 2001;16(9):606-613.',
  fulltext: true,
  questions: [
    ...items.map(([zh, en], i) => single(i + 1, t(zh, en), phqFrequency)),
    single(
      10,
      t(
        '如果你勾选了以上任何问题，这些问题在你工作、处理家庭事务或与他人相处上造成了多大的困难？',
        'If you checked off any problems, how difficult have these problems made it for you to do your work, take care of things at home, or get along with other people?',
      ),
      options([
        ['毫无困难', 'Not difficult at all', 0],
        ['有点困难', 'Somewhat difficult', 1],
        ['非常困难', 'Very difficult', 2],
        ['极度困难', 'Extremely difficult', 3],
      ]),
      { required: false },
    ),
  ],
  indicators: [
    {
      code: 'TOTAL',
      name: t('总分', 'Total score'),
      kind: 'total',
      items: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      formula: { op: 'sum' },
      bands: phqBands,
    },
  ],
  critical: [
    {
      no: 9,
      minScore: 1,
      reason: t(
        '第9题（自伤或轻生念头）得分大于0，无论总分多少均需及时随访评估。',
        'Item 9 (thoughts of death or self-harm) above 0: follow up promptly whatever the total.',
      ),
    },
  ],
  mentalState: { method: 'maxLevel', indicators: ['TOTAL'] },
};
