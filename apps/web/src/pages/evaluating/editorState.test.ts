import { describe, expect, it } from 'vitest';
import { formDefinition, type FormDefinitionInput } from '@xinli/contract';
import {
  definitionToValues,
  deleteQuestion,
  emptyValues,
  formatItemList,
  indicatorRawRange,
  moveQuestion,
  newBand,
  newConvention,
  newConventionIndicator,
  newQuestion,
  parseItemList,
  sheetToAnswers,
  valuesToBody,
  valuesToDefinition,
  EditorValueError,
  type EditorValues,
} from './scale-editor/editorState';

/** A required yes/no item (0/1) of factor F1. */
const yesNo = (no: number, text: { zh: string; en: string }) => ({
  no,
  type: 1 as const,
  required: true,
  text,
  options: [
    { text: { zh: '无', en: 'No' }, score: 0 },
    { text: { zh: '有', en: 'Yes' }, score: 1 },
  ],
  factor: 'F1',
});

/** A small custom scale touching every part of the model. */
const sample: FormDefinitionInput = {
  formcode: 'MOOD5',
  formname: { zh: '情绪五题', en: 'Mood five' },
  formtype: '01',
  appids: ['000000002'],
  instructions: { zh: '请根据最近两周的情况作答', en: '' },
  version: 3,
  licence: { zh: '自编', en: 'Own work' },
  source: 'internal',
  fulltext: true,
  questions: [
    yesNo(1, { zh: '心情低落', en: 'Low mood' }),
    { ...yesNo(2, { zh: '精力充沛', en: 'Energetic' }), reverse: true },
    {
      no: 3,
      type: 2,
      required: true,
      text: { zh: '困扰', en: 'Troubles' },
      options: [
        { text: { zh: '睡眠', en: 'Sleep' }, score: 1 },
        { text: { zh: '食欲', en: 'Appetite' }, score: 1 },
      ],
    },
    {
      no: 4,
      type: 0,
      inputtype: 1,
      required: true,
      text: { zh: '睡眠小时', en: 'Hours of sleep' },
      options: [],
      range: { min: 0, max: 24 },
    },
    { no: 5, type: 0, inputtype: 0, required: false, text: { zh: '备注', en: 'Notes' }, options: [] },
  ],
  indicators: [
    {
      code: 'total',
      name: { zh: '总分', en: 'Total' },
      kind: 'total',
      items: [1, 2, 3],
      formula: { op: 'sum' },
      transforms: [{ op: 'linear', a: 1.25, b: 0 }, { op: 'int' }],
      precision: 0,
      bands: [
        {
          min: 0,
          max: 1,
          level: 0,
          label: { zh: '正常', en: 'Normal' },
          interpretation: { zh: '', en: '' },
          advice: { zh: '', en: '' },
          raisesWarning: false,
        },
        {
          min: 2,
          max: 5,
          level: 3,
          colour: '#aa0000',
          label: { zh: '偏高', en: 'High' },
          interpretation: { zh: '情绪偏低', en: 'Low mood' },
          advice: { zh: '建议复查', en: 'Rescreen' },
          raisesWarning: true,
        },
      ],
    },
    {
      code: 'F1',
      name: { zh: '情绪', en: 'Mood' },
      kind: 'factor',
      formula: {
        op: 'weightedSum',
        weights: [
          { no: 1, weight: 2 },
          { no: 2, weight: 1 },
        ],
      },
      transforms: [],
      precision: 1,
      bands: [],
    },
    {
      code: 'cnt',
      name: { zh: '阳性数', en: 'Positives' },
      kind: 'factor',
      items: [1, 2],
      formula: { op: 'countAtLeast', value: 1 },
      transforms: [{ op: 'round', digits: 1 }],
      precision: 0,
      bands: [],
    },
  ],
  critical: [
    { no: 2, minScore: 1, reason: { zh: '需关注', en: 'Attention' } },
    { no: 3, options: [1, 2], reason: { zh: '食欲', en: 'Appetite' } },
  ],
  validity: [{ indicator: 'cnt', op: 'gte', value: 2, message: { zh: '无效', en: 'Void' } }],
  mentalState: { method: 'maxLevel', indicators: ['total'], levelToState: [1, 2, 3, 3, 4] },
};

describe('item lists', () => {
  it('parses numbers, ranges and Chinese separators, keeping order and dropping repeats', () => {
    expect(parseItemList('1-4, 7 9；12、3')).toEqual([1, 2, 3, 4, 7, 9, 12]);
    expect(parseItemList('5~6，8')).toEqual([5, 6, 8]);
    expect(parseItemList('')).toEqual([]);
  });
  it('rejects what is not a number or range', () => {
    expect(parseItemList('1, a')).toBeNull();
    expect(parseItemList('4-2')).toBeNull();
    expect(parseItemList('0')).toBeNull();
  });
  it('formats runs of three or more as ranges and round-trips', () => {
    expect(formatItemList([1, 2, 3, 4, 7, 9, 10])).toBe('1-4, 7, 9, 10');
    expect(parseItemList(formatItemList([2, 3, 4, 8, 20, 21, 22]))).toEqual([2, 3, 4, 8, 20, 21, 22]);
  });
});

describe('definition <-> editor values', () => {
  it('round-trips a definition through the editor unchanged (as the contract parses it)', () => {
    const values = definitionToValues(sample);
    const back = valuesToDefinition(values);
    expect(formDefinition.parse(back)).toEqual(formDefinition.parse(sample));
  });

  it('round-trips screening rules, scoring conventions, rule sources and the count-below / mean-at-least formulas (issue 31)', () => {
    const band = (min: number, max: number, level: number) => ({
      min,
      max,
      level,
      label: { zh: `段${level}`, en: '' },
      interpretation: { zh: '', en: '' },
      advice: { zh: '', en: '' },
      source: 'cited',
    });
    const rich: FormDefinitionInput = {
      ...sample,
      indicators: [
        ...(sample.indicators ?? []),
        { code: 'NEG', name: { zh: '阴性项目数', en: '' }, kind: 'total', formula: { op: 'countBelow', value: 1 } },
        { code: 'PSDI', name: { zh: '阳性均分', en: '' }, kind: 'total', formula: { op: 'meanAtLeast', value: 1 }, precision: 2 },
        { code: 'T2', name: { zh: '总分2', en: '' }, kind: 'total', formula: { op: 'sum' }, bands: [band(0, 2, 0), band(3, 100, 2)] },
      ],
      critical: [{ no: 1, options: [2], reason: { zh: '危机', en: 'Crisis' }, source: 'public implementations' }],
      screening: [
        {
          name: { zh: '筛查阳性', en: 'Screen positive' },
          level: 'attention',
          conditions: [
            { kind: 'indicator', indicator: 'T2', op: 'gt', value: 2 },
            { kind: 'anyFactor', op: 'gte', value: 1 },
          ],
          reason: { zh: '阳性', en: 'Positive' },
          source: 'rule source',
        },
      ],
      conventions: [
        { code: 'a', name: { zh: '默认', en: 'Default' }, source: 's1' },
        { code: 'b', name: { zh: '四舍五入', en: 'Rounded' }, source: 's2', indicators: [{ code: 'T2', transforms: [{ op: 'round', digits: 0 }] }] },
      ],
    };
    const back = valuesToDefinition(definitionToValues(rich));
    expect(formDefinition.parse(back)).toEqual(formDefinition.parse(rich));
  });

  it('edits conventions: the one marked default is stored first; per indicator only what is replaced (issue 31)', () => {
    const band = (min: number, max: number, level: number) => ({ ...newBand(level, min, max), label: { zh: `段${level}`, en: '' } });
    const v = definitionToValues({
      ...sample,
      conventions: [
        { code: 'a', name: { zh: '默认', en: 'Default' } },
        { code: 'b', name: { zh: '另一种', en: '' }, indicators: [{ code: 'T', transforms: [{ op: 'int' }] }] },
      ],
    });
    expect(v.conventions.map((c) => [c.code, c.isDefault])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(v.conventions[1].indicators[0]).toMatchObject({ replaceTransforms: true, replaceBands: false });
    const c = newConvention(' c ', false);
    c.name = { zh: ' 截断分50 ', en: 'Cut-off 50' };
    c.source = ' 某来源 ';
    c.indicators = [
      { ...newConventionIndicator('T'), bands: [band(0, 1, 0), band(2, 3, 2)] },
      // Neither part replaced: changes nothing, left out.
      { ...newConventionIndicator('T'), replaceBands: false },
    ];
    v.conventions = [{ ...v.conventions[0], isDefault: false }, v.conventions[1], { ...c, isDefault: true }];
    const def = valuesToDefinition(v);
    expect(def.conventions!.map((x) => x.code)).toEqual(['c', 'a', 'b']);
    expect(def.conventions![0]).toEqual({
      code: 'c',
      name: { zh: '截断分50', en: 'Cut-off 50' },
      source: '某来源',
      indicators: [{ code: 'T', bands: [expect.objectContaining({ min: 0, max: 1, level: 0 }), expect.objectContaining({ min: 2, max: 3, level: 2 })] }],
    });
    // Replacing the conversion with none (an empty list) is kept apart from not replacing it.
    v.conventions[1].indicators[0].transforms = [];
    expect(valuesToDefinition(v).conventions![2].indicators).toEqual([{ code: 'T', transforms: [] }]);
    expect(formDefinition.safeParse(valuesToDefinition(v)).success).toBe(true);
  });

  it('keeps type-specific fields only where the question type allows them', () => {
    const values = definitionToValues(sample);
    // A choice question turned into a fill-in loses its options and reversal; a fill-in turned choice loses inputtype.
    values.questions[1] = { ...values.questions[1], type: 0, inputtype: 0 };
    values.questions[3] = {
      ...values.questions[3],
      type: 1,
      options: [
        { text: { zh: '甲', en: '' }, score: 1 },
        { text: { zh: '乙', en: '' }, score: 2 },
      ],
    };
    const def = valuesToDefinition(values);
    expect(def.questions[1]).toMatchObject({ type: 0, inputtype: 0, options: [], reverse: false });
    expect(def.questions[3].inputtype).toBeUndefined();
    expect(def.questions[3].range).toBeUndefined();
    // A plain-text fill-in has no range even if one was typed.
    values.questions[4] = { ...values.questions[4], rangeMin: 1, rangeMax: 2 };
    expect(valuesToDefinition(values).questions[4].range).toBeUndefined();
  });

  it('numbers questions by position and leaves empty optional fields out', () => {
    const v: EditorValues = emptyValues();
    v.formname = { zh: ' 新量表 ', en: '' };
    v.questions = [newQuestion(1), newQuestion(1)];
    v.questions.forEach((q, i) => {
      q.text = { zh: `题${i + 1}`, en: '' };
      q.options.forEach((o, j) => (o.text = { zh: `选项${j}`, en: '' }));
    });
    v.indicators[0].name = { zh: '总分', en: '' };
    v.indicators[0].bands = [newBand(0, 0, 3), newBand(4, 4, 6)];
    v.indicators[0].bands.forEach((b, i) => (b.label = { zh: `段${i}`, en: '' }));
    v.critical = [{ no: 2, minScore: null, options: [], reason: { zh: '原因', en: '' } }];
    const def = valuesToDefinition(v);
    expect(def.formname.zh).toBe('新量表');
    expect(def.questions.map((q) => q.no)).toEqual([1, 2]);
    expect(def.indicators![0].items).toBeUndefined();
    expect(def.indicators![0].bands?.[1]).toMatchObject({ level: 4, raisesWarning: true });
    expect(def.indicators![0].bands?.[0].colour).toBeUndefined();
    expect(def.critical?.[0]).toEqual({ no: 2, reason: { zh: '原因', en: '' } });
    expect(def.mentalState).toBeUndefined();
    expect(formDefinition.safeParse({ ...def, formcode: 'X1' }).success).toBe(true);
  });

  it('sends the body without formcode and version (the server assigns them)', () => {
    const body = valuesToBody(definitionToValues(sample));
    expect(body).not.toHaveProperty('formcode');
    expect(body).not.toHaveProperty('version');
    expect(body.questions).toHaveLength(5);
  });

  it('reports an item list that does not parse with the field path', () => {
    const v = definitionToValues(sample);
    v.indicators[1].items = '1, x';
    expect(() => valuesToDefinition(v)).toThrow(EditorValueError);
    try {
      valuesToDefinition(v);
    } catch (e) {
      expect((e as EditorValueError).path).toEqual(['indicators', 1, 'items']);
    }
  });

  it('renumbers gapped question numbers and every reference to them', () => {
    const gapped: FormDefinitionInput = {
      ...sample,
      questions: sample.questions.map((q) => ({ ...q, no: q.no * 10 })),
      indicators: [
        { ...sample.indicators![0], items: [10, 20, 30] },
        sample.indicators![1] && { ...sample.indicators![1], formula: { op: 'weightedSum', weights: [{ no: 20, weight: 1 }] } },
      ],
      critical: [{ no: 30, minScore: 1, reason: { zh: 'r', en: '' } }],
      validity: [],
    };
    const v = definitionToValues(gapped);
    expect(v.indicators[0].items).toBe('1-3');
    expect(v.indicators[1].weights).toEqual([{ no: 2, weight: 1 }]);
    expect(v.critical[0].no).toBe(3);
  });
});

describe('moving and deleting questions', () => {
  it('moving a question renumbers items, weights and critical rules', () => {
    const v = definitionToValues(sample);
    const moved = moveQuestion(v, 0, 2); // old 1 -> 3, old 2 -> 1, old 3 -> 2
    expect(moved.questions[2].text.zh).toBe('心情低落');
    expect(moved.indicators[0].items).toBe('1-3');
    expect(moved.indicators[1].weights.map((w) => w.no)).toEqual([3, 1]);
    expect(moved.indicators[2].items).toBe('1, 3');
    expect(moved.critical.map((c) => c.no)).toEqual([1, 2]);
  });

  it('deleting a question drops references to it and shifts later numbers', () => {
    const v = definitionToValues(sample);
    const after = deleteQuestion(v, 1); // delete question 2
    expect(after.questions).toHaveLength(4);
    expect(after.indicators[0].items).toBe('1, 2');
    expect(after.indicators[1].weights).toEqual([{ no: 1, weight: 2 }]);
    expect(after.critical).toEqual([{ no: 2, minScore: null, options: [1, 2], reason: { zh: '食欲', en: 'Appetite' } }]);
  });
});

describe('try-it sheet and hints', () => {
  it('turns the sheet into answers: one option, sorted options, trimmed text, unanswered left out', () => {
    const questions = [
      { no: 1, type: 1 as const },
      { no: 2, type: 2 as const },
      { no: 3, type: 0 as const },
      { no: 4, type: 0 as const },
      { no: 5, type: 1 as const },
    ];
    const answers = sheetToAnswers(questions, { 1: { option: 2 }, 2: { options: [3, 1] }, 3: { text: ' 7 ' }, 4: { text: '  ' } });
    expect(answers).toEqual([
      { no: 1, option: 2 },
      { no: 2, options: [1, 3] },
      { no: 3, text: '7' },
    ]);
  });

  it('gives the raw range of sum, mean and count indicators', () => {
    const v = definitionToValues(sample);
    expect(indicatorRawRange(v, v.indicators[0])).toEqual({ min: 0, max: 4 });
    expect(indicatorRawRange(v, { ...v.indicators[0], formula: 'mean' })).toEqual({ min: 0, max: 4 / 3 });
    expect(indicatorRawRange(v, v.indicators[2])).toEqual({ min: 0, max: 2 });
    expect(indicatorRawRange(v, v.indicators[1])).toBeNull();
  });
});
