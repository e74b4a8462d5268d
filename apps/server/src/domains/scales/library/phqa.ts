/**
 * PHQ-A, PHQ-9 modified for adolescents (青少年患者健康问卷). Items 1-9 scored 0-3, sum 0-27 with
 * the PHQ-9 bands; item 9 > 0 is critical (research note, assessment-domain.md §2). Items 10-13
 * (past-year depression, difficulty, serious suicidal thoughts in the past month, lifetime
 * attempt) follow the published form (Johnson et al. 2002; GLAD-PC teen version): they are asked
 * but not in the total, and a "yes" to item 12 or 13 is critical. The Chinese wording is our
 * translation of the public English form.
 */
import type { FormDefinitionInput } from '@xinli/contract';
import { options, phqBands, phqFrequency, single, t } from './build.js';

const items: [string, string][] = [
  ['感到情绪低落、沮丧、烦躁或绝望', 'Feeling down, depressed, irritable, or hopeless'],
  ['做事时提不起劲或没有兴趣', 'Little interest or pleasure in doing things'],
  ['入睡困难、睡不安稳或睡得太多', 'Trouble falling asleep, staying asleep, or sleeping too much'],
  ['食欲不振、体重减轻或吃得太多', 'Poor appetite, weight loss, or overeating'],
  ['感觉疲倦或没有活力', 'Feeling tired, or having little energy'],
  [
    '觉得自己很糟，或觉得自己很失败，或让自己或家人失望',
    'Feeling bad about yourself, or feeling that you are a failure, or that you have let yourself or your family down',
  ],
  ['对事物专注有困难，例如做功课、阅读或看电视时', 'Trouble concentrating on things like school work, reading, or watching TV'],
  [
    '动作或说话速度缓慢到别人已经察觉？或正好相反，烦躁或坐立不安、动来动去的情况比平常更严重',
    'Moving or speaking so slowly that other people could have noticed? Or the opposite, being so fidgety or restless that you were moving around a lot more than usual',
  ],
  ['有不如死掉或用某种方式伤害自己的念头', 'Thoughts that you would be better off dead, or of hurting yourself in some way'],
];

const yesNo = options([
  ['是', 'Yes', 1],
  ['否', 'No', 0],
]);

export const phqa: FormDefinitionInput = {
  formcode: 'PHQA',
  formname: t('青少年患者健康问卷（PHQ-A）', 'PHQ-9 modified for adolescents (PHQ-A)'),
  formtype: '01',
  appids: ['000000002'],
  instructions: t(
    '在过去两周里，以下问题困扰你的频率如何？请选择最符合你感受的一项。',
    'How often have you been bothered by each of the following symptoms during the past two weeks? Choose the answer that best describes how you have been feeling.',
  ),
  version: 1,
  licence: t(
    'PHQ-A 属于 PHQ 系列（辉瑞资助编制），按公有领域使用，无需许可（来源较弱，见研究笔记）。',
    'Part of the PHQ family (developed with a Pfizer grant); used as public domain, no permission required (weak source, see the research note).',
  ),
  source:
    'Johnson JG, Harris ES, Spitzer RL, Williams JBW. The Patient Health Questionnaire for Adolescents. J Adolesc Health 2002;30(3):196-204; GLAD-PC PHQ-9 modified for teens.',
  fulltext: true,
  questions: [
    ...items.map(([zh, en], i) => single(i + 1, t(zh, en), phqFrequency)),
    single(
      10,
      t(
        '在过去一年中，你是否在大多数日子里感到抑郁或悲伤，即使有时感觉还好？',
        'In the past year have you felt depressed or sad most days, even if you felt okay sometimes?',
      ),
      yesNo,
    ),
    single(
      11,
      t(
        '如果你有以上任何问题，这些问题在你做功课、处理家里的事情或与他人相处上造成了多大的困难？',
        'If you are experiencing any of the problems on this form, how difficult have these problems made it for you to do your work, take care of things at home or get along with other people?',
      ),
      options([
        ['毫无困难', 'Not difficult at all', 0],
        ['有点困难', 'Somewhat difficult', 1],
        ['非常困难', 'Very difficult', 2],
        ['极度困难', 'Extremely difficult', 3],
      ]),
      { required: false },
    ),
    single(
      12,
      t(
        '在过去一个月里，你是否曾认真地想过结束自己的生命？',
        'Has there been a time in the past month when you have had serious thoughts about ending your life?',
      ),
      yesNo,
    ),
    single(
      13,
      t('在你的一生中，你是否曾经尝试过自杀？', 'Have you ever, in your whole life, tried to kill yourself or made a suicide attempt?'),
      yesNo,
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
    {
      no: 12,
      options: [1],
      reason: t(
        '过去一个月内曾认真想过结束生命，需立即评估。',
        'Serious thoughts of ending their life in the past month: assess immediately.',
      ),
    },
    { no: 13, options: [1], reason: t('曾有自杀尝试史，需及时评估。', 'A past suicide attempt: assess promptly.') },
  ],
  mentalState: { method: 'maxLevel', indicators: ['TOTAL'] },
};
