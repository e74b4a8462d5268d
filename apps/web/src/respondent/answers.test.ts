import { describe, expect, it } from 'vitest';
import type { AnswerInput } from '@xinli/contract';
import { checkAnswer, fromArchiveValue, isGiven, resumeIndex, toArchiveValue, type ArchiveValue, type RQuestion } from './answers';
import { setLang, t } from './i18n';
import zhCN from './messages/zh-CN';
import enUS from './messages/en-US';

const text = (zh: string) => ({ zh, en: zh });
const choice = (no: number, required = true): RQuestion => ({
  no,
  type: 1,
  required,
  text: text(`Q${no}`),
  options: [{ text: text('a') }, { text: text('b') }],
});
const fill = (no: number, inputtype: number, range?: { min: number; max: number }): RQuestion => ({
  no,
  type: 0,
  inputtype,
  required: true,
  text: text(`F${no}`),
  options: [],
  range,
});

describe('respondent answers', () => {
  it('a required question needs an answer; an optional one may stay empty', () => {
    setLang('en-US');
    expect(checkAnswer(choice(1), undefined)).toBe(t('required'));
    expect(checkAnswer(choice(1), { no: 1, text: '  ' })).toBe(t('required'));
    expect(checkAnswer(choice(1, false), undefined)).toBeNull();
    expect(checkAnswer(choice(1), { no: 1, option: 2 })).toBeNull();
    expect(isGiven({ no: 1, options: [] })).toBe(false);
  });

  it('checks fill-ins by input type (integer, decimal, range, time range, region code)', () => {
    setLang('zh-CN');
    expect(checkAnswer(fill(1, 1), { no: 1, text: '3.5' })).toBe('请输入整数');
    expect(checkAnswer(fill(1, 1, { min: 1, max: 10 }), { no: 1, text: '11' })).toBe('请输入 1 到 10 之间的数');
    expect(checkAnswer(fill(1, 2), { no: 1, text: '36.6' })).toBeNull();
    expect(checkAnswer(fill(1, 2), { no: 1, text: 'abc' })).toBe('请输入数字');
    expect(checkAnswer(fill(1, 7, { min: 0, max: 5 }), { no: 1, text: '5' })).toBeNull();
    expect(checkAnswer(fill(1, 6), { no: 1, text: '08:00-' })).toBe('请填写开始和结束时间，开始不能晚于结束');
    expect(checkAnswer(fill(1, 6), { no: 1, text: '08:00-12:30' })).toBeNull();
    expect(checkAnswer(fill(1, 6), { no: 1, text: '12:30-08:00' })).toBe('请填写开始和结束时间，开始不能晚于结束');
    expect(checkAnswer(fill(1, 8), { no: 1, text: '33' })).toBe('请选完省份、城市和区县');
    expect(checkAnswer(fill(1, 8), { no: 1, text: '3301' })).toBe('请选完省份、城市和区县');
    expect(checkAnswer(fill(1, 8), { no: 1, text: '330108' })).toBeNull();
  });

  it('resumes at the first question without a saved answer, or at the end', () => {
    const qs = [choice(1), choice(2), choice(3)];
    expect(resumeIndex(qs, {})).toBe(0);
    expect(resumeIndex(qs, { 1: { no: 1, option: 1 }, 2: { no: 2, option: 2 } })).toBe(2);
    expect(resumeIndex(qs, { 1: { no: 1, option: 1 }, 2: { no: 2, option: 2 }, 3: { no: 3, option: 1 } })).toBe(3);
  });

  it('converts archive answers both ways (positions, numbers, texts)', () => {
    const single = choice(1);
    const multi: RQuestion = { ...choice(2), type: 2 };
    const age = fill(3, 1);
    const region = fill(4, 8);
    const cases: [RQuestion, AnswerInput, ArchiveValue][] = [
      [single, { no: 1, option: 2 }, { no: 1, value: 2 }],
      [multi, { no: 2, options: [1, 2] }, { no: 2, value: [1, 2] }],
      [age, { no: 3, text: '42' }, { no: 3, value: 42 }],
      [region, { no: 4, text: '330108' }, { no: 4, value: '330108' }],
    ];
    for (const [q, answer, stored] of cases) {
      expect(toArchiveValue(q, answer)).toEqual(stored);
      expect(fromArchiveValue(q, stored)).toEqual(answer);
    }
  });

  it('has the same message keys in Chinese and English', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${p}${k}`] : keys(v, `${p}${k}.`)));
    expect(keys(enUS)).toEqual(keys(zhCN));
    expect(keys(zhCN).length).toBeGreaterThan(60);
  });
});
