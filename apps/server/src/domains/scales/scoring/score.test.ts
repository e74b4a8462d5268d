import { describe, expect, it } from 'vitest';
import { LevelColours, type AnswerSheet, type FormDefinitionInput } from '@xinli/contract';
import { builtInForm } from '../library/index.js';
import { ScoringError } from './errors.js';
import { scoreSheet } from './score.js';
import { randomSheet, seededRandom } from './sheets.js';
import { parseDefinition } from './validate.js';

const tx = (zh: string) => ({ zh, en: zh.toUpperCase() });
const phq9 = builtInForm('PHQ9')!;
const answers = (n: number, option = 1) => Array.from({ length: n }, (_, i) => ({ no: i + 1, option }));

/** The ScoringError a sheet is rejected with. */
function rejection(sheet: AnswerSheet, def = phq9): ScoringError {
  try {
    scoreSheet(def, sheet);
  } catch (e) {
    if (e instanceof ScoringError) return e;
    throw e;
  }
  throw new Error('the sheet was scored');
}

describe('answer sheets that are rejected, never scored', () => {
  it('missing answers: lists the question numbers in both languages', () => {
    const e = rejection({ answers: answers(9).filter((a) => a.no !== 3 && a.no !== 5) });
    expect(e.kind).toBe('answers');
    expect(e.answerIssues).toEqual([{ kind: 'missing', nos: [3, 5] }]);
    expect(e.msg.zh).toContain('未作答：第3、5题');
    expect(e.msg.en).toContain('unanswered: questions 3, 5');
  });

  it('an empty sheet misses every required question (the optional item 10 is not required)', () => {
    expect(rejection({ answers: [] }).answerIssues).toEqual([{ kind: 'missing', nos: [1, 2, 3, 4, 5, 6, 7, 8, 9] }]);
  });

  it('out-of-range options: above the last option and below 1', () => {
    const sheet = { answers: answers(9).map((a) => (a.no === 2 ? { no: 2, option: 5 } : a.no === 7 ? { no: 7, option: 0 } : a)) };
    const e = rejection(sheet);
    expect(e.answerIssues).toEqual([{ kind: 'outOfRange', nos: [2, 7] }]);
    expect(e.msg.en).toContain('option out of range: questions 2, 7');
  });

  it('a fractional or non-numeric option position is out of range (the engine does not trust the caller)', () => {
    const sheet = {
      answers: answers(9).map((a) => (a.no === 1 ? { no: 1, option: 1.5 } : a.no === 2 ? { no: 2, option: Number.NaN } : a)),
    };
    expect(rejection(sheet).answerIssues).toEqual([{ kind: 'outOfRange', nos: [1, 2] }]);
  });

  it('duplicate, unknown and wrong-kind answers, all reported together', () => {
    const sheet = {
      answers: [...answers(9).map((a) => (a.no === 4 ? { no: 4, options: [1] } : a)), { no: 1, option: 2 }, { no: 42, option: 1 }],
    };
    const e = rejection(sheet);
    expect(e.answerIssues).toEqual([
      { kind: 'unknown', nos: [42] },
      { kind: 'duplicate', nos: [1] },
      { kind: 'wrongKind', nos: [4] },
    ]);
    expect(e.msg.zh).toContain('题目不存在：第42题');
    expect(e.msg.zh).toContain('重复作答：第1题');
  });

  it('an answer with an option AND text is the wrong kind', () => {
    const sheet = { answers: answers(9).map((a) => (a.no === 6 ? { ...a, text: 'x' } : a)) };
    expect(rejection(sheet).answerIssues).toEqual([{ kind: 'wrongKind', nos: [6] }]);
  });

  it('an optional question may be left out or answered; a full sheet scores', () => {
    expect(scoreSheet(phq9, { answers: answers(9, 2) }).indicators[0].score).toBe(9);
    expect(scoreSheet(phq9, { answers: [...answers(9, 2), { no: 10, option: 4 }] }).indicators[0].score).toBe(9);
  });
});

/** A form exercising every formula, transform and question kind. */
const custom: FormDefinitionInput = {
  formcode: 'MIX',
  formname: tx('混合'),
  formtype: '01',
  instructions: tx(''),
  version: 3,
  licence: tx(''),
  source: '',
  fulltext: true,
  questions: [
    { no: 1, type: 1, required: true, text: tx('a'), options: [0, 1, 2].map((s) => ({ text: tx(`o${s}`), score: s })) },
    { no: 2, type: 1, required: true, reverse: true, text: tx('b'), options: [0, 1, 2].map((s) => ({ text: tx(`o${s}`), score: s })) },
    { no: 3, type: 2, required: true, text: tx('c'), options: [1, 2, 4].map((s) => ({ text: tx(`o${s}`), score: s })) },
    { no: 4, type: 0, inputtype: 1, required: true, text: tx('hours'), range: { min: 0, max: 24 } },
    { no: 5, type: 0, inputtype: 0, required: false, text: tx('remark') },
    { no: 6, type: 0, inputtype: 2, required: true, text: tx('decimal'), range: { min: 0, max: 10 } },
  ],
  indicators: [
    { code: 'SUM', name: tx('和'), kind: 'total', items: [1, 2, 3], formula: { op: 'sum' } },
    {
      code: 'W',
      name: tx('加权'),
      kind: 'total',
      items: [1, 2, 4],
      formula: {
        op: 'weightedSum',
        weights: [
          { no: 1, weight: 2 },
          { no: 4, weight: 0.5 },
          { no: 2, weight: -1 },
        ],
      },
      transforms: [{ op: 'round', digits: 0 }],
    },
    { code: 'CNT', name: tx('计数'), kind: 'total', items: [1, 2, 3], formula: { op: 'countAtLeast', value: 2 } },
    {
      code: 'MEAN',
      name: tx('均分'),
      kind: 'factor',
      items: [1, 2, 6],
      formula: { op: 'mean' },
      transforms: [{ op: 'linear', a: 10, b: 0 }],
      precision: 1,
      bands: [
        { min: 0, max: 29.9, level: 0, label: tx('低'), interpretation: tx('i0'), advice: tx('a0') },
        {
          min: 30,
          max: 39.9,
          level: 3,
          colour: '#123456',
          label: tx('中'),
          interpretation: tx('i1'),
          advice: tx('a1'),
          raisesWarning: true,
        },
        { min: 40, max: 46.7, level: 4, label: tx('高'), interpretation: tx('i2'), advice: tx('a2'), raisesWarning: true },
      ],
    },
  ],
  critical: [{ no: 3, options: [3], reason: tx('选了第三项') }],
  mentalState: { method: 'maxLevel', indicators: ['MEAN'], levelToState: [1, 1, 2, 3, 4] },
};

describe('formulas, transforms and question kinds', () => {
  const def = parseDefinition(custom);
  const sheet = (a: number, b: number, c: number[], hours: string, dec: string, remark?: string): AnswerSheet => ({
    answers: [
      { no: 1, option: a },
      { no: 2, option: b },
      { no: 3, options: c },
      { no: 4, text: hours },
      { no: 6, text: dec },
      ...(remark === undefined ? [] : [{ no: 5, text: remark }]),
    ],
  });
  const ind = (r: ReturnType<typeof scoreSheet>, code: string) => r.indicators.find((i) => i.code === code)!;

  it('reversal, multiple-choice sums, weighted sums, counts, means, linear and round transforms', () => {
    // q1 option 3 -> 2; q2 option 1 reversed -> 2; q3 options 1+3 -> 1+4 = 5; hours 7; decimal 2.5
    const r = scoreSheet(def, sheet(3, 1, [3, 1], '7', '2.5', 'fine'));
    expect(r.items).toEqual([
      { no: 1, score: 2 },
      { no: 2, score: 2 },
      { no: 3, score: 5 },
      { no: 4, score: 7 },
      { no: 6, score: 2.5 },
    ]);
    expect(ind(r, 'SUM').score).toBe(9);
    expect(ind(r, 'W')).toMatchObject({ raw: 2 * 2 + 0.5 * 7 - 2, score: 6 }); // 5.5 rounds half away from zero
    expect(ind(r, 'CNT').score).toBe(3);
    // mean(2, 2, 2.5) x 10 = 21.666.. -> 21.7 at one decimal
    expect(ind(r, 'MEAN')).toMatchObject({ score: 21.7, level: 0, colour: LevelColours[0], label: tx('低') });
    expect(r.mentalState).toBe(1);
    expect(r.warnings.map((w) => w.source)).toEqual(['critical']);
    expect(r).toMatchObject({ formcode: 'MIX', version: 3, voided: false, voidReason: null });
  });

  it('own band colours, the level-to-state map and band warnings with the score in the reason', () => {
    const r = scoreSheet(def, sheet(3, 3, [1], '0', '10'));
    // mean(2, 0, 10) x 10 = 40 -> level 4
    expect(ind(r, 'MEAN')).toMatchObject({ score: 40, level: 4, band: 2 });
    expect(r.mentalState).toBe(4);
    const mid = scoreSheet(def, sheet(3, 3, [1], '0', '7'));
    expect(ind(mid, 'MEAN')).toMatchObject({ score: 30, level: 3, colour: '#123456', interpretation: tx('i1'), advice: tx('a1') });
    expect(mid.mentalState).toBe(3);
    expect(mid.warnings).toEqual([
      { source: 'band', indicator: 'MEAN', level: 3, reason: { zh: '均分：中（30分）', en: '均分: 中 (score 30)' } },
    ]);
  });

  it('numeric fill-ins are checked: not a number, not an integer, out of range', () => {
    const e = rejection(sheet(1, 1, [1], '7.5', 'abc'), def);
    expect(e.answerIssues).toEqual([{ kind: 'invalidValue', nos: [4, 6] }]);
    expect(rejection(sheet(1, 1, [1], '25', '1'), def).answerIssues).toEqual([{ kind: 'outOfRange', nos: [4] }]);
    expect(rejection(sheet(1, 1, [1], '   ', '1'), def).answerIssues).toEqual([{ kind: 'missing', nos: [4] }]);
  });

  it('multiple choice: empty, repeated or out-of-range choices are rejected', () => {
    expect(rejection(sheet(1, 1, [], '1', '1'), def).answerIssues).toEqual([{ kind: 'missing', nos: [3] }]);
    expect(rejection(sheet(1, 1, [2, 2], '1', '1'), def).answerIssues).toEqual([{ kind: 'duplicate', nos: [3] }]);
    expect(rejection(sheet(1, 1, [4], '1', '1'), def).answerIssues).toEqual([{ kind: 'outOfRange', nos: [3] }]);
  });

  it('random valid sheets always score, with scores inside the indicator ranges', () => {
    const random = seededRandom(11);
    for (let i = 0; i < 200; i++) {
      const r = scoreSheet(def, randomSheet(def, random));
      const mean = ind(r, 'MEAN').score;
      expect(mean).toBeGreaterThanOrEqual(0);
      expect(mean).toBeLessThanOrEqual(46.7);
      expect(ind(r, 'MEAN').level).not.toBeNull();
    }
  });
});

describe('void sheets and critical items', () => {
  it('a void sheet keeps its critical warnings but drops band warnings and the mental state', () => {
    const def = parseDefinition({
      ...custom,
      formcode: 'MIXV',
      validity: [{ indicator: 'SUM', op: 'gte', value: 7, message: tx('作废') }],
    });
    const r = scoreSheet(def, {
      answers: [
        { no: 1, option: 3 },
        { no: 2, option: 3 },
        { no: 3, options: [1, 2, 3] },
        { no: 4, text: '0' },
        { no: 6, text: '10' },
      ],
    });
    expect(r.voided).toBe(true);
    expect(r.voidReason).toEqual(tx('作废'));
    expect(r.mentalState).toBe(0);
    expect(r.warnings).toEqual([expect.objectContaining({ source: 'critical', no: 3 })]);
  });
});
