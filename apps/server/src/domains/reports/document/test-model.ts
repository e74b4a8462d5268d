import type { DocumentModel } from './model.js';

/**
 * The sample report the document's tests print (template, convention): a module of its own, as a
 * test file imported by another would have its tests registered again in the importer.
 */

/** A text in both languages. */
export const t = (zh: string, en = '') => ({ zh, en });
/** What every free text of the sample carries: markup, quotes and an ampersand the page must escape. */
export const HOSTILE = '<script>alert(1)</script>"\'&';

/** A PHQ-9 report with two earlier results and a comment, every free text hostile where it is user input. */
export function sampleModel(lang: DocumentModel['lang'], over: Partial<DocumentModel> = {}): DocumentModel {
  const indicator = {
    code: 'total',
    name: t('总分', 'Total'),
    kind: 'total' as const,
    raw: 16,
    score: 16,
    band: 3,
    level: 3,
    colour: '#e8590c',
    label: t('中重度抑郁', 'Moderately severe'),
    interpretation: t('存在中重度抑郁症状。', 'Moderately severe depressive symptoms.'),
    advice: t('建议尽快接受专业评估。', 'Seek a professional assessment soon.'),
    raisesWarning: true,
  };
  const point = (reportid: string, createdat: string, score: number, level: number) => ({
    reportid,
    createdat,
    mentalstate: level,
    indicators: [{ code: 'total', name: lang === 'en-US' ? 'Total' : '总分', score, level, colour: null }],
  });
  return {
    lang,
    institution: { name: `滨江医院 ${HOSTILE}`, logo: null },
    report: {
      reportid: 'A3',
      cusercode: 'C1',
      realname: `王小红${HOSTILE}`,
      gender: '02',
      appid: '000000001',
      appname: '孕产',
      musercode: 'I0002',
      insname: `滨江医院 ${HOSTILE}`,
      plancode: 'PL-M1',
      planname: '孕期筛查',
      stagecode: 'ST-M1',
      stagename: '孕早期',
      formcode: 'PHQ9',
      formname: 'PHQ-9',
      version: 1,
      mentalstate: 3,
      level: 3,
      colour: '#e8590c',
      warning: 1,
      voided: 0,
      hidden: 0,
      createdat: '2026-11-20T02:00:00.000Z',
      indicators: [indicator],
      warnings: [{ source: 'critical', reason: t('第 9 题：有自伤念头', 'Item 9: thoughts of self-harm'), no: 9 }],
      answers: [
        {
          no: 1,
          question: t('做事时提不起劲或没有兴趣', 'Little interest or pleasure in doing things'),
          type: 1,
          options: [3],
          answer: '一半以上的天数',
          score: 2,
        },
        {
          no: 9,
          question: t('有不如死掉或用某种方式伤害自己的念头', 'Thoughts that you would be better off dead'),
          type: 1,
          options: [2],
          answer: '有几天',
          score: 1,
        },
        { no: 11, question: t('其他想说的', 'Anything else'), type: 0, options: [], answer: `最近睡不好${HOSTILE}`, score: null },
      ],
      voidreason: null,
      comments: [],
      trend: [],
      norm: null,
    },
    person: { realname: `王小红${HOSTILE}`, gender: '02', age: 29 },
    trend: [
      point('A1', '2026-06-01T02:00:00.000Z', 6, 1),
      point('A2', '2026-09-01T02:00:00.000Z', 11, 2),
      point('A3', '2026-11-20T02:00:00.000Z', 16, 3),
    ],
    phq9: [
      { reportid: 'A1', createdat: '2026-06-01T02:00:00.000Z', score: 6, level: 1, item9: 0 },
      { reportid: 'A2', createdat: '2026-09-01T02:00:00.000Z', score: 11, level: 2, item9: 0 },
      { reportid: 'A3', createdat: '2026-11-20T02:00:00.000Z', score: 16, level: 3, item9: 1 },
    ],
    comments: [{ author: `张医生${HOSTILE}`, createdat: '2026-11-20T03:00:00.000Z', text: `已电话随访。${HOSTILE}` }],
    printedat: '2026-11-21T08:00:00.000Z',
    ...over,
  };
}
