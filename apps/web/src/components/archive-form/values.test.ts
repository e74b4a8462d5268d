import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { answersToValues, fillInStored, regionPath, valuesToAnswers, type ArchiveField } from './values';

const q = (no: number, type: number, inputtype: number | null = null): ArchiveField => ({
  no,
  type,
  inputtype,
  required: false,
  title: { zh: `题${no}`, en: `Q${no}` },
  options: type
    ? [
        { zh: '是', en: 'Yes' },
        { zh: '否', en: 'No' },
      ]
    : [],
  range: null,
});

const form = [q(1, 1), q(2, 2), ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((t) => q(10 + t, 0, t))];

describe('archive values', () => {
  it('turns every input type into its stored value and back', () => {
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
      { no: 1, value: 2 },
      { no: 2, value: [1, 2] },
      { no: 10, value: '备注' },
      { no: 11, value: 12 },
      { no: 12, value: 1.5 },
      { no: 13, value: '2026-01-31' },
      { no: 14, value: '08:30' },
      { no: 15, value: '2026-01-31 08:30' },
      { no: 16, value: '08:30-17:00' },
      { no: 17, value: 3 },
      { no: 18, value: '110101' },
    ]);
    // Back to widget values and out again gives the same answers.
    expect(valuesToAnswers(form, answersToValues(form, answers))).toEqual(answers);
  });

  it('leaves out empty answers and answers to questions the form no longer has', () => {
    expect(valuesToAnswers(form, { '1': undefined, '2': [], '10': '  ', '11': null, '16': null, '18': [] })).toEqual([]);
    expect(answersToValues(form, [{ no: 99, value: 'x' }])).toEqual({});
    expect(fillInStored(6, [dayjs('2000-01-01 08:00')] as unknown as [dayjs.Dayjs, dayjs.Dayjs])).toBeUndefined();
  });

  it('finds the province and city above a region code', () => {
    expect(regionPath('110101')).toEqual(['110000', '110100', '110101']);
    expect(regionPath('440300')).toEqual(['440000', '440300']);
    expect(regionPath('440000')).toEqual(['440000']);
    expect(regionPath('abc')).toEqual([]);
  });
});
