/**
 * Every built-in instrument scored against its PUBLISHED rules, restated here independently of
 * the library files: item ranges, reversed items, the x1.25 rule, cut-offs. Sheets are generated
 * from target totals; expectations come from the rules below, never from the engine.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerSheet, FormDefinition, ScoreResult } from '@xinli/contract';
import { scoreSheet } from '../scoring/score.js';
import { seededRandom } from '../scoring/sheets.js';
import { builtInForm } from './index.js';

interface Published {
  code: string;
  /** Scored items 1..n. */
  n: number;
  itemMin: number;
  itemMax: number;
  /** Option position (1-based, printed order) that gives item `no` the score `s`. */
  pos: (no: number, s: number) => number;
  indicator: string;
  /** Final score from the raw sum (identity unless stated). */
  transform?: (raw: number) => number;
  /** Cut-off bands on the final score: [min, max, level]. */
  bands: [number, number, number][];
  /** Other required questions and the (non-critical) option answered in band tests. */
  extra?: { no: number; option: number }[];
}

const set = (xs: number[]) => new Set(xs);
const SDS_REV = set([2, 5, 6, 11, 12, 14, 16, 17, 18, 20]);
const SAS_REV = set([5, 9, 13, 17, 19]);
const EPDS_REV = set([3, 5, 6, 7, 8, 9, 10]);
const PSS_REV = set([4, 5, 7, 8]);
const GDS_NO = set([1, 5, 7, 11, 13]);
const zung = (raw: number) => Math.floor((raw * 5) / 4);

const published: Published[] = [
  {
    code: 'PHQ9',
    n: 9,
    itemMin: 0,
    itemMax: 3,
    pos: (_, s) => s + 1,
    indicator: 'TOTAL',
    bands: [
      [0, 4, 0],
      [5, 9, 1],
      [10, 14, 2],
      [15, 19, 3],
      [20, 27, 4],
    ],
  },
  {
    code: 'PHQA',
    n: 9,
    itemMin: 0,
    itemMax: 3,
    pos: (_, s) => s + 1,
    indicator: 'TOTAL',
    bands: [
      [0, 4, 0],
      [5, 9, 1],
      [10, 14, 2],
      [15, 19, 3],
      [20, 27, 4],
    ],
    extra: [
      { no: 10, option: 2 },
      { no: 12, option: 2 },
      { no: 13, option: 2 },
    ],
  },
  {
    code: 'GAD7',
    n: 7,
    itemMin: 0,
    itemMax: 3,
    pos: (_, s) => s + 1,
    indicator: 'TOTAL',
    bands: [
      [0, 4, 0],
      [5, 9, 1],
      [10, 14, 2],
      [15, 21, 4],
    ],
  },
  // GDS-15: options Yes (1st), No (2nd); the point goes to "No" on GDS_NO items, to "Yes" on the rest.
  {
    code: 'GDS15',
    n: 15,
    itemMin: 0,
    itemMax: 1,
    pos: (no, s) => (GDS_NO.has(no) === (s === 1) ? 2 : 1),
    indicator: 'TOTAL',
    bands: [
      [0, 5, 0],
      [6, 9, 1],
      [10, 15, 3],
    ],
  },
  // EPDS: printed order; a reversed item's first option scores 3.
  {
    code: 'EPDS',
    n: 10,
    itemMin: 0,
    itemMax: 3,
    pos: (no, s) => (EPDS_REV.has(no) ? 4 - s : s + 1),
    indicator: 'TOTAL',
    bands: [
      [0, 9, 0],
      [10, 12, 1],
      [13, 30, 3],
    ],
  },
  {
    code: 'SDS',
    n: 20,
    itemMin: 1,
    itemMax: 4,
    pos: (no, s) => (SDS_REV.has(no) ? 5 - s : s),
    indicator: 'STD',
    transform: zung,
    bands: [
      [25, 52, 0],
      [53, 62, 1],
      [63, 72, 2],
      [73, 100, 4],
    ],
  },
  {
    code: 'SAS',
    n: 20,
    itemMin: 1,
    itemMax: 4,
    pos: (no, s) => (SAS_REV.has(no) ? 5 - s : s),
    indicator: 'STD',
    transform: zung,
    bands: [
      [25, 49, 0],
      [50, 59, 1],
      [60, 69, 2],
      [70, 100, 4],
    ],
  },
  {
    code: 'PSS10',
    n: 10,
    itemMin: 0,
    itemMax: 4,
    pos: (no, s) => (PSS_REV.has(no) ? 5 - s : s + 1),
    indicator: 'TOTAL',
    bands: [
      [0, 13, 0],
      [14, 26, 1],
      [27, 40, 3],
    ],
  },
  {
    code: 'ISI',
    n: 7,
    itemMin: 0,
    itemMax: 4,
    pos: (_, s) => s + 1,
    indicator: 'TOTAL',
    bands: [
      [0, 7, 0],
      [8, 14, 1],
      [15, 21, 2],
      [22, 28, 4],
    ],
  },
  {
    code: 'UCLA3',
    n: 3,
    itemMin: 1,
    itemMax: 3,
    pos: (_, s) => s,
    indicator: 'TOTAL',
    bands: [
      [3, 5, 0],
      [6, 9, 1],
    ],
  },
  {
    code: 'SCL90',
    n: 90,
    itemMin: 1,
    itemMax: 5,
    pos: (_, s) => s,
    indicator: 'TOTAL',
    bands: [
      [90, 160, 0],
      [161, 450, 1],
    ],
  },
];

/** Mental state of SPEC §3 for a band level on the five-level scale: none/good/mild/moderate/severe. */
const STATE_OF_LEVEL = [1, 2, 3, 3, 4];

/** Item scores 1..n summing to `raw`, spread at random between the item limits. */
function spread(p: Published, raw: number, random: () => number): number[] {
  const s = Array.from({ length: p.n }, () => p.itemMin);
  let left = raw - p.n * p.itemMin;
  while (left > 0) {
    const i = Math.floor(random() * p.n);
    if (s[i] < p.itemMax) {
      s[i]++;
      left--;
    }
  }
  return s;
}

function sheetFor(p: Published, itemScores: number[]): AnswerSheet {
  return {
    answers: [
      ...itemScores.map((s, i) => ({ no: i + 1, option: p.pos(i + 1, s) })),
      ...(p.extra ?? []).map((e) => ({ no: e.no, option: e.option })),
    ],
  };
}

const indicator = (r: ScoreResult, code: string) => r.indicators.find((i) => i.code === code)!;
const form = (code: string): FormDefinition => {
  const d = builtInForm(code);
  if (!d) throw new Error(`no built-in form ${code}`);
  return d;
};

describe.each(published)('$code against its published rules', (p) => {
  const def = form(p.code);
  const tf = p.transform ?? ((x: number) => x);
  const raws = Array.from({ length: p.n * (p.itemMax - p.itemMin) + 1 }, (_, i) => p.n * p.itemMin + i);

  it('scores the minimum and maximum sheets at the extremes of the scale', () => {
    const lo = scoreSheet(def, sheetFor(p, Array(p.n).fill(p.itemMin)));
    const hi = scoreSheet(def, sheetFor(p, Array(p.n).fill(p.itemMax)));
    expect(indicator(lo, p.indicator).score).toBe(tf(p.n * p.itemMin));
    expect(indicator(hi, p.indicator).score).toBe(tf(p.n * p.itemMax));
    expect(indicator(lo, p.indicator).level).toBe(p.bands[0][2]);
    expect(indicator(hi, p.indicator).level).toBe(p.bands[p.bands.length - 1][2]);
  });

  // Each band at its lowest and highest reachable score.
  const edges = p.bands.flatMap(([min, max, level]) => {
    const inBand = raws.filter((r) => tf(r) >= min && tf(r) <= max);
    return [
      { edge: 'lowest', raw: inBand[0], min, max, level },
      { edge: 'highest', raw: inBand[inBand.length - 1], min, max, level },
    ];
  });
  it.each(edges)('band [$min, $max] at its $edge score is level $level', ({ raw, min, max, level }) => {
    const random = seededRandom(raw * 7919 + min);
    for (let round = 0; round < 3; round++) {
      const r = scoreSheet(def, sheetFor(p, spread(p, raw, random)));
      const ind = indicator(r, p.indicator);
      expect(ind.score).toBe(tf(raw));
      expect(ind.score).toBeGreaterThanOrEqual(min);
      expect(ind.score).toBeLessThanOrEqual(max);
      expect(ind.level).toBe(level);
      expect(r.voided).toBe(false);
      if (def.mentalState?.indicators.length === 1) expect(r.mentalState).toBe(STATE_OF_LEVEL[level]);
    }
  });

  it('scores random sheets as the sum of the published item scores', () => {
    const random = seededRandom(p.n * 31);
    for (let round = 0; round < 50; round++) {
      const scores = Array.from({ length: p.n }, () => p.itemMin + Math.floor(random() * (p.itemMax - p.itemMin + 1)));
      const r = scoreSheet(def, sheetFor(p, scores));
      const raw = scores.reduce((a, b) => a + b, 0);
      expect(indicator(r, p.indicator).score).toBe(tf(raw));
      expect(r.items.filter((i) => i.no <= p.n).map((i) => i.score)).toEqual(scores);
    }
  });
});

describe('reverse-scored items', () => {
  const allFirst = (code: string, n: number, extra: { no: number; option: number }[] = []) =>
    scoreSheet(form(code), { answers: [...Array.from({ length: n }, (_, i) => ({ no: i + 1, option: 1 })), ...extra] });

  it('EPDS: the first printed option scores 3 on items 3 and 5-10, 0 on items 1, 2, 4', () => {
    const r = allFirst('EPDS', 10);
    expect(r.items.map((i) => i.score)).toEqual([0, 0, 3, 0, 3, 3, 3, 3, 3, 3]);
    expect(indicator(r, 'TOTAL').score).toBe(21);
  });

  it('SDS: all "none or a little" gives 1 on forward items and 4 on the ten reversed ones', () => {
    const r = allFirst('SDS', 20);
    const expected = Array.from({ length: 20 }, (_, i) => (SDS_REV.has(i + 1) ? 4 : 1));
    expect(r.items.map((i) => i.score)).toEqual(expected);
    expect(indicator(r, 'RAW').score).toBe(50);
    expect(indicator(r, 'STD').score).toBe(62);
  });

  it('SAS: all first options give raw 35 (15 x 1 + 5 x 4)', () => {
    const r = allFirst('SAS', 20);
    expect(indicator(r, 'RAW').score).toBe(35);
    expect(indicator(r, 'STD').score).toBe(43);
    expect(r.items.filter((i) => SAS_REV.has(i.no)).every((i) => i.score === 4)).toBe(true);
  });

  it('PSS-10: "never" scores 4 on items 4, 5, 7, 8 and 0 elsewhere', () => {
    const r = allFirst('PSS10', 10);
    expect(r.items.map((i) => i.score)).toEqual([0, 0, 0, 4, 4, 0, 4, 4, 0, 0]);
    expect(indicator(r, 'TOTAL').score).toBe(16);
  });

  it('GDS-15: all "Yes" scores the ten depressive items; all "No" scores items 1, 5, 7, 11, 13', () => {
    const yes = allFirst('GDS15', 15);
    expect(indicator(yes, 'TOTAL').score).toBe(10);
    expect(yes.items.filter((i) => i.score === 1).map((i) => i.no)).toEqual([2, 3, 4, 6, 8, 9, 10, 12, 14, 15]);
    const no = scoreSheet(form('GDS15'), { answers: Array.from({ length: 15 }, (_, i) => ({ no: i + 1, option: 2 })) });
    expect(indicator(no, 'TOTAL').score).toBe(5);
    expect(indicator(no, 'TOTAL').level).toBe(0);
  });
});

describe('Zung standard score = whole part of raw x 1.25', () => {
  it.each(['SDS', 'SAS'])('%s over every raw score 20-80', (code) => {
    const p = published.find((x) => x.code === code)!;
    const random = seededRandom(99);
    for (let raw = 20; raw <= 80; raw++) {
      const r = scoreSheet(form(code), sheetFor(p, spread(p, raw, random)));
      expect(indicator(r, 'RAW').score).toBe(raw);
      expect(indicator(r, 'STD').score).toBe(Math.trunc(raw * 1.25));
    }
  });

  it('SDS raw 41 is normal (standard 51) and raw 43 is mild (standard 53)', () => {
    const p = published.find((x) => x.code === 'SDS')!;
    const r41 = scoreSheet(form('SDS'), sheetFor(p, spread(p, 41, seededRandom(1))));
    const r43 = scoreSheet(form('SDS'), sheetFor(p, spread(p, 43, seededRandom(2))));
    expect(indicator(r41, 'STD')).toMatchObject({ score: 51, level: 0 });
    expect(indicator(r43, 'STD')).toMatchObject({ score: 53, level: 1 });
  });
});

describe('critical items raise a warning whatever the total', () => {
  const zeros = (n: number) => Array.from({ length: n }, (_, i) => ({ no: i + 1, option: 1 }));

  it('PHQ-9 item 9 = 1 with a total of 1', () => {
    const answers = zeros(9);
    answers[8] = { no: 9, option: 2 };
    const r = scoreSheet(form('PHQ9'), { answers });
    expect(indicator(r, 'TOTAL')).toMatchObject({ score: 1, level: 0 });
    expect(r.mentalState).toBe(1);
    expect(r.warnings).toEqual([expect.objectContaining({ source: 'critical', no: 9 })]);
  });

  it('PHQ-9 item 9 = 0 raises nothing at a total of 0', () => {
    expect(scoreSheet(form('PHQ9'), { answers: zeros(9) }).warnings).toEqual([]);
  });

  it('EPDS item 10 "hardly ever" (score 1) with a total of 1', () => {
    const p = published.find((x) => x.code === 'EPDS')!;
    const scores = Array(10).fill(0);
    scores[9] = 1;
    const r = scoreSheet(form('EPDS'), sheetFor(p, scores));
    expect(indicator(r, 'TOTAL').score).toBe(1);
    expect(r.warnings).toEqual([expect.objectContaining({ source: 'critical', no: 10 })]);
    // Score 0 on item 10 is its LAST printed option (reversed item).
    const calm = scoreSheet(form('EPDS'), sheetFor(p, Array(10).fill(0)));
    expect(calm.warnings).toEqual([]);
  });

  it('PHQ-A item 9, and "yes" to serious suicidal thoughts (item 12) or a past attempt (item 13)', () => {
    const base = [...zeros(9), { no: 10, option: 2 }, { no: 12, option: 2 }, { no: 13, option: 2 }];
    const with_ = (no: number, option: number) => base.map((a) => (a.no === no ? { no, option } : a));
    expect(scoreSheet(form('PHQA'), { answers: base }).warnings).toEqual([]);
    expect(scoreSheet(form('PHQA'), { answers: with_(9, 2) }).warnings.map((w) => w.no)).toEqual([9]);
    expect(scoreSheet(form('PHQA'), { answers: with_(12, 1) }).warnings.map((w) => w.no)).toEqual([12]);
    expect(scoreSheet(form('PHQA'), { answers: with_(13, 1) }).warnings.map((w) => w.no)).toEqual([13]);
  });

  it('SDS item 19 from "some of the time" on', () => {
    const p = published.find((x) => x.code === 'SDS')!;
    const scores = Array(20).fill(1);
    expect(scoreSheet(form('SDS'), sheetFor(p, scores)).warnings).toEqual([]);
    scores[18] = 2;
    const r = scoreSheet(form('SDS'), sheetFor(p, scores));
    expect(r.warnings).toEqual([expect.objectContaining({ source: 'critical', no: 19 })]);
  });

  it('a band with raisesWarning adds a band warning (PHQ-9 total 10)', () => {
    const p = published.find((x) => x.code === 'PHQ9')!;
    const r = scoreSheet(form('PHQ9'), sheetFor(p, [2, 2, 2, 2, 2, 0, 0, 0, 0]));
    expect(r.warnings).toEqual([expect.objectContaining({ source: 'band', indicator: 'TOTAL', level: 2 })]);
    expect(r.mentalState).toBe(3);
  });
});

describe('SCL-90 factors and positive screen', () => {
  // Factor item lists of the published SCL-90 (restated here, not imported).
  const factors: Record<string, { items: number[]; clinical: boolean }> = {
    SOM: { items: [1, 4, 12, 27, 40, 42, 48, 49, 52, 53, 56, 58], clinical: true },
    OC: { items: [3, 9, 10, 28, 38, 45, 46, 51, 55, 65], clinical: true },
    IS: { items: [6, 21, 34, 36, 37, 41, 61, 69, 73], clinical: true },
    DEP: { items: [5, 14, 15, 20, 22, 26, 29, 30, 31, 32, 54, 71, 79], clinical: true },
    ANX: { items: [2, 17, 23, 33, 39, 57, 72, 78, 80, 86], clinical: true },
    HOS: { items: [11, 24, 63, 67, 74, 81], clinical: true },
    PHOB: { items: [13, 25, 47, 50, 70, 75, 82], clinical: true },
    PAR: { items: [8, 18, 43, 68, 76, 83], clinical: true },
    PSY: { items: [7, 16, 35, 62, 77, 84, 85, 87, 88, 90], clinical: true },
    OTH: { items: [19, 44, 59, 60, 64, 66, 89], clinical: false },
  };
  const def = form('SCL90');
  const sheet = (scores: number[]): AnswerSheet => ({ answers: scores.map((s, i) => ({ no: i + 1, option: s })) });
  const round2 = (x: number) => Math.round(x * 100) / 100;
  const expectedPositive = (scores: number[]) => {
    const total = scores.reduce((a, b) => a + b, 0);
    const positives = scores.filter((s) => s >= 2).length;
    const anyFactor = Object.values(factors).some(
      (f) => f.clinical && f.items.reduce((t, no) => t + scores[no - 1], 0) / f.items.length >= 2,
    );
    return total > 160 || positives > 43 || anyFactor;
  };

  it('the factor item lists cover items 1-90 exactly once', () => {
    const all = Object.values(factors)
      .flatMap((f) => f.items)
      .sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
  });

  it('factor score = factor total / item count; total, mean and positive count; screen rule', () => {
    const random = seededRandom(2024);
    let positives = 0;
    for (let round = 0; round < 300; round++) {
      // Mostly "not at all" so that both screen outcomes occur.
      const bias = random() * 0.4;
      const scores = Array.from({ length: 90 }, () => (random() < bias ? 2 + Math.floor(random() * 4) : 1));
      const r = scoreSheet(def, sheet(scores));
      for (const [code, f] of Object.entries(factors)) {
        const mean = f.items.reduce((t, no) => t + scores[no - 1], 0) / f.items.length;
        expect(indicator(r, code).score).toBeCloseTo(round2(mean), 10);
        const level = mean >= 4 ? 4 : mean >= 3 ? 2 : mean >= 2 ? 1 : 0;
        expect(indicator(r, code).level).toBe(level);
      }
      const total = scores.reduce((a, b) => a + b, 0);
      expect(indicator(r, 'TOTAL').score).toBe(total);
      expect(indicator(r, 'GSI').score).toBeCloseTo(round2(total / 90), 10);
      expect(indicator(r, 'PCOUNT').score).toBe(scores.filter((s) => s >= 2).length);
      const positive = expectedPositive(scores);
      if (positive) positives++;
      expect(r.mentalState >= 2).toBe(positive);
    }
    expect(positives).toBeGreaterThan(20);
    expect(positives).toBeLessThan(280);
  });

  // Raise items (from 1) without any clinical factor mean reaching 2: each factor at most n-1 extra points.
  function belowFactorThreshold(extra: number, perItem: number): number[] {
    const scores = Array(90).fill(1);
    let left = extra;
    for (const f of [factors.OTH, ...Object.values(factors).filter((x) => x.clinical)]) {
      let budget = f.clinical ? f.items.length - 1 : Infinity;
      for (const no of f.items) {
        const add = Math.min(perItem - 1, left, budget);
        if (add <= 0) break;
        scores[no - 1] += add;
        left -= add;
        budget -= add;
      }
    }
    expect(left).toBe(0);
    return scores;
  }

  it('total 161 alone screens positive; total 160 does not', () => {
    for (const [extra, positive] of [
      [71, true],
      [70, false],
    ] as const) {
      const scores = belowFactorThreshold(extra, 5);
      expect(scores.filter((s) => s >= 2).length).toBeLessThanOrEqual(43);
      const r = scoreSheet(def, sheet(scores));
      expect(indicator(r, 'TOTAL').score).toBe(90 + extra);
      expect(r.mentalState >= 2).toBe(positive);
      expect(expectedPositive(scores)).toBe(positive);
    }
  });

  it('44 positive items alone screen positive; 43 do not', () => {
    for (const [count, positive] of [
      [44, true],
      [43, false],
    ] as const) {
      const scores = belowFactorThreshold(count, 2);
      const r = scoreSheet(def, sheet(scores));
      expect(indicator(r, 'PCOUNT').score).toBe(count);
      expect(indicator(r, 'TOTAL').score).toBe(90 + count);
      expect(r.mentalState >= 2).toBe(positive);
    }
  });

  it('one clinical factor at mean 2 alone screens positive; the "other" factor does not decide', () => {
    const hos = Array(90).fill(1);
    for (const no of factors.HOS.items) hos[no - 1] = 2;
    const r = scoreSheet(def, sheet(hos));
    expect(indicator(r, 'HOS')).toMatchObject({ score: 2, level: 1 });
    expect(r.mentalState).toBe(2);
    const oth = Array(90).fill(1);
    for (const no of factors.OTH.items) oth[no - 1] = 3;
    const r2 = scoreSheet(def, sheet(oth));
    expect(indicator(r2, 'OTH')).toMatchObject({ score: 3, level: 2 });
    expect(r2.mentalState).toBe(1);
  });

  it('the extremes: all 1 (total 90, every factor 1) and all 5 (total 450, every factor 5)', () => {
    const lo = scoreSheet(def, sheet(Array(90).fill(1)));
    const hi = scoreSheet(def, sheet(Array(90).fill(5)));
    expect(lo.indicators.filter((i) => i.kind === 'factor').every((i) => i.score === 1 && i.level === 0)).toBe(true);
    expect(hi.indicators.filter((i) => i.kind === 'factor').every((i) => i.score === 5 && i.level === 4)).toBe(true);
    expect(lo.mentalState).toBe(1);
    expect(hi.mentalState).toBe(4);
  });
});

describe('MHT', () => {
  const def = form('MHT');
  const LIE = new Set(Array.from({ length: 10 }, (_, i) => 82 + 2 * i));
  const scales: Record<string, number[]> = {
    LEARN: Array.from({ length: 15 }, (_, i) => 1 + i),
    SOCIAL: Array.from({ length: 10 }, (_, i) => 16 + i),
    LONELY: Array.from({ length: 10 }, (_, i) => 26 + i),
    BLAME: Array.from({ length: 10 }, (_, i) => 36 + i),
    SENSE: Array.from({ length: 10 }, (_, i) => 46 + i),
    BODY: Array.from({ length: 15 }, (_, i) => 56 + i),
    PHOBIA: Array.from({ length: 10 }, (_, i) => 71 + i),
    IMPULSE: Array.from({ length: 10 }, (_, i) => 81 + 2 * i),
  };
  /** Yes (option 1) on the given items, No (option 2) elsewhere. */
  const yesOn = (items: number[]): AnswerSheet => ({
    answers: Array.from({ length: 100 }, (_, i) => ({ no: i + 1, option: items.includes(i + 1) ? 1 : 2 })),
  });

  it('the eight content scales and the lie scale cover items 1-100 exactly once', () => {
    const all = [...Object.values(scales).flat(), ...LIE].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('total = "yes" answers among the 90 content items; lie items do not count', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 50; round++) {
      const yes = Array.from({ length: 100 }, (_, i) => i + 1).filter(() => random() < 0.3);
      const r = scoreSheet(def, yesOn(yes));
      expect(indicator(r, 'TOTAL').score).toBe(yes.filter((no) => !LIE.has(no)).length);
      expect(indicator(r, 'LIE').score).toBe(yes.filter((no) => LIE.has(no)).length);
      for (const [code, items] of Object.entries(scales))
        expect(indicator(r, code).score).toBe(items.filter((no) => yes.includes(no)).length);
    }
  });

  it('a content scale of 8 is high and warns; 7 is normal', () => {
    const seven = scoreSheet(def, yesOn(scales.LONELY.slice(0, 7)));
    expect(indicator(seven, 'LONELY')).toMatchObject({ score: 7, level: 0 });
    expect(seven.warnings).toEqual([]);
    expect(seven.mentalState).toBe(1);
    const eight = scoreSheet(def, yesOn(scales.LONELY.slice(0, 8)));
    expect(indicator(eight, 'LONELY')).toMatchObject({ score: 8, level: 2, raisesWarning: true });
    expect(eight.warnings).toEqual([expect.objectContaining({ source: 'band', indicator: 'LONELY' })]);
    expect(eight.mentalState).toBe(3);
  });

  it('extremes: all "no" (total 0) and all "yes" (total 90, lie 10: void)', () => {
    const none = scoreSheet(def, yesOn([]));
    expect(indicator(none, 'TOTAL').score).toBe(0);
    expect(none.voided).toBe(false);
    const all = scoreSheet(def, yesOn(Array.from({ length: 100 }, (_, i) => i + 1)));
    expect(indicator(all, 'TOTAL').score).toBe(90);
    expect(all.voided).toBe(true);
  });

  it('a lie score of 7 voids the sheet: mental state 0, no band warnings; 6 does not', () => {
    const lie = [...LIE];
    const sixLies = scoreSheet(def, yesOn([...lie.slice(0, 6), ...scales.LEARN.slice(0, 9)]));
    expect(sixLies.voided).toBe(false);
    expect(sixLies.voidReason).toBeNull();
    expect(sixLies.mentalState).toBe(3);
    const sevenLies = scoreSheet(def, yesOn([...lie.slice(0, 7), ...scales.LEARN.slice(0, 9)]));
    expect(sevenLies.voided).toBe(true);
    expect(sevenLies.voidReason?.zh).toContain('无效');
    expect(sevenLies.voidReason?.en).toMatch(/void/);
    expect(sevenLies.mentalState).toBe(0);
    expect(sevenLies.warnings).toEqual([]);
    // The scores stay available to staff.
    expect(indicator(sevenLies, 'LEARN').score).toBe(9);
  });
});
