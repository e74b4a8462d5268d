import { describe, expect, it } from 'vitest';
import { formDefinition, type FormDefinition, type FormDefinitionInput } from '@xinli/contract';
import { ScoringError } from './errors.js';
import { parseDefinition, validateDefinition } from './validate.js';

const tx = (zh: string) => ({ zh, en: zh });
const opts = (n: number) => Array.from({ length: n }, (_, i) => ({ text: tx(`o${i}`), score: i }));

/** A valid three-item form (items 0-3, total 0-9) to break one way at a time. */
function base(): FormDefinitionInput {
  return {
    formcode: 'T1',
    formname: tx('测试'),
    formtype: '01',
    instructions: tx(''),
    version: 1,
    licence: tx(''),
    source: '',
    fulltext: true,
    questions: [1, 2, 3].map((no) => ({
      no,
      type: 1 as const,
      required: true,
      text: tx(`q${no}`),
      options: opts(4),
      factor: no < 3 ? 'F' : undefined,
    })),
    indicators: [
      {
        code: 'TOTAL',
        name: tx('总分'),
        kind: 'total',
        formula: { op: 'sum' },
        bands: [
          { min: 0, max: 4, level: 0, label: tx('正常'), interpretation: tx(''), advice: tx('') },
          { min: 5, max: 9, level: 2, label: tx('偏高'), interpretation: tx(''), advice: tx(''), raisesWarning: true },
        ],
      },
      {
        code: 'F',
        name: tx('因子'),
        kind: 'factor',
        formula: { op: 'mean' },
        precision: 2,
        bands: [{ min: 0, max: 3, level: 0, label: tx('全'), interpretation: tx(''), advice: tx('') }],
      },
    ],
    critical: [{ no: 3, minScore: 2, reason: tx('危机') }],
    validity: [{ indicator: 'F', op: 'gte', value: 3, message: tx('无效') }],
    mentalState: { method: 'maxLevel', indicators: ['TOTAL'] },
  };
}

const parse = (d: FormDefinitionInput): FormDefinition => formDefinition.parse(d);
/** Issues of a broken variant of the base form. */
function issuesOf(change: (d: FormDefinitionInput) => void) {
  const d = base();
  change(d);
  return validateDefinition(parse(d));
}
const texts = (issues: { message: { en: string } }[]) => issues.map((i) => i.message.en).join(' | ');

describe('definition validator', () => {
  it('accepts the base form', () => {
    expect(validateDefinition(parse(base()))).toEqual([]);
    expect(parseDefinition(base()).formcode).toBe('T1');
  });

  it('an indicator reading an unknown question', () => {
    const issues = issuesOf((d) => (d.indicators![0].items = [1, 2, 7]));
    expect(texts(issues)).toContain('indicator TOTAL reads question 7, which does not exist');
    expect(issues[0].path).toBe('indicators.0');
  });

  it('overlapping bands', () => {
    expect(texts(issuesOf((d) => (d.indicators![0].bands![1].min = 4)))).toContain('bands [0, 4] and [4, 9] overlap');
  });

  it('gapped bands', () => {
    expect(texts(issuesOf((d) => (d.indicators![0].bands![1].min = 6)))).toContain('gap between bands [0, 4] and [6, 9]');
  });

  it('bands that leave the highest or lowest possible score uncovered', () => {
    expect(texts(issuesOf((d) => (d.indicators![0].bands![1].max = 8)))).toContain('the highest possible score 9 falls in no band');
    expect(texts(issuesOf((d) => (d.indicators![0].bands![0].min = 1)))).toContain('the lowest possible score 0 falls in no band');
  });

  it('band edges finer than the precision, and a band upside down', () => {
    expect(texts(issuesOf((d) => (d.indicators![0].bands![0].max = 4.5)))).toContain('finer than the indicator precision');
    expect(texts(issuesOf((d) => (d.indicators![0].bands![0] = { ...d.indicators![0].bands![0], min: 4, max: 0 })))).toContain(
      'min above max',
    );
  });

  it('mean bands at two decimals meet at 0.01', () => {
    const ok = issuesOf((d) => {
      const b = d.indicators![1].bands![0];
      d.indicators![1].bands = [
        { ...b, min: 0, max: 1.99 },
        { ...b, min: 2, max: 3 },
      ];
    });
    expect(ok).toEqual([]);
    const gap = issuesOf((d) => {
      const b = d.indicators![1].bands![0];
      d.indicators![1].bands = [
        { ...b, min: 0, max: 1.98 },
        { ...b, min: 2, max: 3 },
      ];
    });
    expect(texts(gap)).toContain('gap between bands [0, 1.98] and [2, 3]');
  });

  it('a critical rule on a missing question, or with no condition, or an option the question lacks', () => {
    expect(texts(issuesOf((d) => (d.critical![0].no = 12)))).toContain('critical rule on question 12, which does not exist');
    expect(texts(issuesOf((d) => (d.critical![0] = { no: 3, reason: tx('x') })))).toContain('needs a minimum score or options');
    expect(texts(issuesOf((d) => (d.critical![0] = { no: 3, options: [5], reason: tx('x') })))).toContain('question 3 has no option 5');
  });

  it('unknown references: factor, validity indicator, mental-state indicator', () => {
    expect(texts(issuesOf((d) => (d.questions[0].factor = 'NOPE')))).toContain('unknown factor NOPE');
    expect(texts(issuesOf((d) => (d.validity![0].indicator = 'NOPE')))).toContain('validity rule on an unknown indicator NOPE');
    expect(texts(issuesOf((d) => (d.mentalState!.indicators = ['NOPE'])))).toContain('mental-state rule names an unknown indicator NOPE');
  });

  it('duplicates, optional scored items, unscored items, options on fill-ins', () => {
    expect(texts(issuesOf((d) => (d.questions[1].no = 1)))).toContain('question number 1 is used twice');
    expect(texts(issuesOf((d) => (d.questions[0].required = false)))).toContain('reads question 1, which must be required');
    expect(
      texts(
        issuesOf((d) => {
          d.questions.push({ no: 4, type: 0, inputtype: 0, required: true, text: tx('name') });
          d.indicators![0].items = [1, 2, 4];
        }),
      ),
    ).toContain('reads question 4, which has no score');
    expect(texts(issuesOf((d) => (d.questions[2] = { ...d.questions[2], type: 0 })))).toContain(
      'question 3 is a fill-in and cannot have options',
    );
    expect(texts(issuesOf((d) => d.indicators!.push({ ...d.indicators![0] })))).toContain('indicator code TOTAL is used twice');
    expect(texts(issuesOf((d) => (d.questions[0].options = opts(1))))).toContain('needs at least two options');
    expect(
      texts(issuesOf((d) => d.questions.push({ no: 4, type: 0, inputtype: 1, required: true, reverse: true, text: tx('n') }))),
    ).toContain('question 4 is reverse-scored and needs a range');
    expect(
      texts(issuesOf((d) => d.questions.push({ no: 4, type: 0, inputtype: 0, required: true, reverse: true, text: tx('n') }))),
    ).toContain('question 4 has no score and cannot be reverse-scored');
  });

  it('weights on items the indicator does not read', () => {
    const issues = issuesOf((d) => {
      d.indicators![0].items = [1, 2];
      d.indicators![0].formula = { op: 'weightedSum', weights: [{ no: 3, weight: 1 }] };
      d.indicators![0].bands = [];
    });
    expect(texts(issues)).toContain('weights question 3, which it does not read');
  });

  it('parseDefinition throws a ScoringError listing every problem, malformed ones included', () => {
    const broken = base();
    broken.indicators![0].items = [9];
    broken.critical![0].no = 12;
    try {
      parseDefinition(broken);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScoringError);
      const err = e as ScoringError;
      expect(err.kind).toBe('definition');
      expect(err.definitionIssues.map((i) => i.path)).toEqual(expect.arrayContaining(['indicators.0', 'critical.0']));
      expect(err.msg.zh).toContain('第12题');
      expect(err.msg.en).toContain('question 12');
    }
    expect(() => parseDefinition({ ...base(), formtype: '09' })).toThrow(/formtype/);
    expect(() => parseDefinition({ ...base(), extra: 1 })).toThrow(ScoringError);
  });
});
