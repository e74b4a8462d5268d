import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { QuestionDefinition } from '@xinli/contract';
import { answerText, answersToValues, fillInText, valuesToAnswers } from './values';

const q = (no: number, type: 0 | 1 | 2, inputtype?: number): QuestionDefinition => ({
  no,
  type,
  inputtype,
  required: false,
  text: { zh: `题${no}`, en: `Q${no}` },
  options: type ? [{ text: { zh: '是', en: 'Yes' }, score: 1 }, { text: { zh: '否', en: 'No' }, score: 0 }] : [],
  reverse: false,
});

const form = [q(1, 1), q(2, 2), ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((t) => q(10 + t, 0, t))];

describe('archive values', () => {
  it('turns every input type into its stored text and back', () => {
    const values = {
      '1': 2,
      '2': [2, 1],
      '10': ' 备注 ',
      '11': 12,
      '12': 1.5,
      '13': dayjs('2026-01-31'),
      '14': dayjs('2000-01-01 08:30'),
      '15': dayjs('2026-01-31 08:30'),
      '16': [dayjs('2000-01-01 08:30'), dayjs('2000-01-01 17:00')] as [dayjs.Dayjs, dayjs.Dayjs],
      '17': 3,
      '18': ['110000', '110100', '110101'],
    };
    const answers = valuesToAnswers(form, values);
    expect(answers).toEqual([
      { no: 1, option: 2 },
      { no: 2, options: [1, 2] },
      { no: 10, text: '备注' },
      { no: 11, text: '12' },
      { no: 12, text: '1.5' },
      { no: 13, text: '2026-01-31' },
      { no: 14, text: '08:30' },
      { no: 15, text: '2026-01-31 08:30' },
      { no: 16, text: '08:30~17:00' },
      { no: 17, text: '3' },
      { no: 18, text: '110000/110100/110101' },
    ]);
    // Back to widget values and out again gives the same answers.
    expect(valuesToAnswers(form, answersToValues(form, answers))).toEqual(answers);
  });

  it('leaves out empty answers and answers to questions the form no longer has', () => {
    expect(valuesToAnswers(form, { '1': undefined, '2': [], '10': '  ', '16': null, '18': [] })).toEqual([]);
    expect(answersToValues(form, [{ no: 99, text: 'x' }])).toEqual({});
    expect(fillInText(6, [dayjs('2000-01-01 08:00')] as unknown as [dayjs.Dayjs, dayjs.Dayjs])).toBeUndefined();
  });

  it('names answers for a reader', () => {
    const zh = (t: { zh: string }) => t.zh;
    expect(answerText(form[0], { no: 1, option: 1 }, zh)).toBe('是');
    expect(answerText(form[1], { no: 2, options: [1, 2] }, zh)).toBe('是、否');
    expect(answerText(form[10], { no: 18, text: '11/12' }, zh, (c) => c.join('>'))).toBe('11>12');
    expect(answerText(form[2], undefined, zh)).toBe('');
  });
});
