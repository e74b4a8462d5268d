/**
 * Issue 31 §1: crisis items, screening rules and scoring conventions as data in the definitions.
 * Every expected figure below is computed by hand in the comment beside it.
 */
import { describe, expect, it } from 'vitest';
import type { FormDefinition, QuestionDefinition, ScoreResult } from '@xinli/contract';
import { builtInForm } from '../library/index.js';
import { MHT_SCALES } from '../library/mht.js';
import { SCL90_FACTORS } from '../library/scl90.js';
import { scoreSheet } from './score.js';
import { sheetOf } from './sheets.js';
import { parseDefinition } from './validate.js';

const form = (code: string) => builtInForm(code)!;
const ind = (r: ScoreResult, code: string) => r.indicators.find((i) => i.code === code)!;
const sources = (r: ScoreResult) => r.warnings.map((w) => w.source);

/** A Zung sheet from item scores (1-4): reversed items take option 5 - score. Unlisted items score 2, item 19 scores 1. */
function zung(def: FormDefinition, scores: Record<number, number> = {}) {
  const rev = new Set(def.questions.filter((q) => q.reverse).map((q) => q.no));
  const scoreOf = (q: QuestionDefinition) => scores[q.no] ?? (q.no === 19 ? 1 : 2);
  return sheetOf(def, (q) => (rev.has(q.no) ? 5 - scoreOf(q) : scoreOf(q)));
}

describe('SDS conventions: cut-offs 53 or 50, standard score truncated or rounded', () => {
  const sds = form('SDS');
  // Items 1, 3, 4 score 3, item 19 scores 1, the other 16 score 2: raw 9 + 1 + 32 = 42; 42 x 1.25 = 52.5.
  const raw42 = zung(sds, { 1: 3, 3: 3, 4: 3 });
  // Items 1, 2, 3, 4, 7, 8, 9, 10, 13 at 3 (27), item 15 at 4, item 19 at 1, the other nine at 2 (18): raw 50; x 1.25 = 62.5.
  const raw50 = zung(sds, { 1: 3, 2: 3, 3: 3, 4: 3, 7: 3, 8: 3, 9: 3, 10: 3, 13: 3, 15: 4 });

  it('today default (truncate, 53/63/73): raw 42 -> 52, no depression; the report names the convention', () => {
    const r = scoreSheet(sds, raw42);
    expect(ind(r, 'RAW').score).toBe(42);
    expect(ind(r, 'STD')).toMatchObject({ score: 52, level: 0 });
    expect(r.convention).toMatchObject({ code: 'cn53-int' });
    expect(r.convention!.name.zh).toContain('取整数部分');
    expect(r.convention!.source).toContain('王春芳');
    expect(r.warnings).toEqual([]);
  });
  it('rounding with 53/63/73: raw 42 -> 52.5 rounds to 53, mild', () => {
    const r = scoreSheet(sds, raw42, { convention: 'cn53-round' });
    expect(ind(r, 'STD')).toMatchObject({ score: 53, level: 1 });
    expect(r.convention).toMatchObject({ code: 'cn53-round' });
    expect(r.convention!.name.en).toContain('rounded');
  });
  it('cut-offs 50/60/70: raw 42 -> 52 truncated and 53 rounded, both mild', () => {
    expect(ind(scoreSheet(sds, raw42, { convention: 'cut50-int' }), 'STD')).toMatchObject({ score: 52, level: 1 });
    expect(ind(scoreSheet(sds, raw42, { convention: 'cut50-round' }), 'STD')).toMatchObject({ score: 53, level: 1 });
  });
  it('raw 50 -> 62.5: truncated 62 is mild (no warning), rounded 63 is moderate and warns', () => {
    const int = scoreSheet(sds, raw50);
    expect(ind(int, 'RAW').score).toBe(50);
    expect(ind(int, 'STD')).toMatchObject({ score: 62, level: 1 });
    expect(int.warnings).toEqual([]);
    const round = scoreSheet(sds, raw50, { convention: 'cn53-round' });
    expect(ind(round, 'STD')).toMatchObject({ score: 63, level: 2 });
    expect(round.warnings).toEqual([expect.objectContaining({ source: 'band', indicator: 'STD', level: 2 })]);
  });
  it('an unknown convention (since removed) scores with the default', () => {
    expect(scoreSheet(sds, raw42, { convention: 'gone' }).convention).toMatchObject({ code: 'cn53-int' });
  });
});

describe('SAS conventions: truncated or rounded (the sources agree on 50/60/70)', () => {
  const sas = form('SAS');
  // Items 1, 3, 4 at 3, item 19 (reversed in the SAS) at 1, the other 16 at 2: raw 42 -> 52.5.
  const raw42 = zung(sas, { 1: 3, 3: 3, 4: 3 });
  it('raw 42: truncated 52, rounded 53, both mild', () => {
    const int = scoreSheet(sas, raw42);
    expect(ind(int, 'RAW').score).toBe(42);
    expect(ind(int, 'STD')).toMatchObject({ score: 52, level: 1 });
    expect(int.convention).toMatchObject({ code: 'cn50-int' });
    const round = scoreSheet(sas, raw42, { convention: 'cn50-round' });
    expect(ind(round, 'STD')).toMatchObject({ score: 53, level: 1 });
    expect(round.convention).toMatchObject({ code: 'cn50-round' });
  });
  it('raw 39 -> 48.75: truncated 48, rounded 49, both below 50', () => {
    // Item 19 at 1, the other 19 at 2: raw 39.
    const raw39 = zung(sas, {});
    expect(ind(scoreSheet(sas, raw39), 'RAW').score).toBe(39);
    expect(ind(scoreSheet(sas, raw39), 'STD')).toMatchObject({ score: 48, level: 0 });
    expect(ind(scoreSheet(sas, raw39, { convention: 'cn50-round' }), 'STD')).toMatchObject({ score: 49, level: 0 });
  });
});

describe('MHT: critical items 85 and 97, total bands', () => {
  const mht = form('MHT');
  const yesTo = (yes: number[]) => sheetOf(mht, (q) => (yes.includes(q.no) ? 1 : 2));
  const content = MHT_SCALES.flatMap((s) => s.items).filter((no) => no !== 85 && no !== 97);

  it('a "yes" to item 85 alone is critical with a total of 1', () => {
    const r = scoreSheet(mht, yesTo([85]));
    expect(ind(r, 'TOTAL')).toMatchObject({ score: 1, level: 0 });
    expect(r.warnings).toEqual([expect.objectContaining({ source: 'critical', no: 85 })]);
    expect(mht.critical.find((c) => c.no === 85)!.source).toContain('MHT');
  });
  it('a "yes" to item 97 alone is critical', () => {
    expect(scoreSheet(mht, yesTo([97])).warnings).toEqual([expect.objectContaining({ source: 'critical', no: 97 })]);
  });
  it('both items on a sheet the lie scale voids: still two critical warnings', () => {
    const lie = [82, 84, 86, 88, 90, 92, 94]; // lie score 7: void
    const r = scoreSheet(mht, yesTo([85, 97, ...lie]));
    expect(r.voided).toBe(true);
    expect(r.warnings.map((w) => w.no)).toEqual([85, 97]);
  });
  it('total 55 normal, 56 and 64 raised, 65 high with a warning', () => {
    const at = (n: number) => scoreSheet(mht, yesTo(content.slice(0, n)));
    expect(ind(at(55), 'TOTAL')).toMatchObject({ score: 55, level: 0 });
    expect(ind(at(56), 'TOTAL')).toMatchObject({ score: 56, level: 1 });
    expect(ind(at(64), 'TOTAL')).toMatchObject({ score: 64, level: 1 });
    const high = at(65);
    expect(ind(high, 'TOTAL')).toMatchObject({ score: 65, level: 2 });
    expect(high.warnings).toContainEqual(expect.objectContaining({ source: 'band', indicator: 'TOTAL' }));
    expect(sources(high)).not.toContain('critical');
  });
});

describe('SCL-90: the Chinese screening rule, positive and negative items, PSDI', () => {
  const scl = form('SCL90');
  /** Options per factor, given to the factor's first items in order; every other item "not at all" (1). */
  const sheet = (per: Partial<Record<string, number[]>>) => {
    const option = new Map<number, number>();
    for (const f of SCL90_FACTORS) (per[f.code] ?? []).forEach((o, i) => option.set(f.items[i], o));
    return scoreSheet(scl, sheetOf(scl, (q) => option.get(q.no) ?? 1));
  };
  const screening = (r: ScoreResult) => r.warnings.filter((w) => w.source === 'screening');

  it('all "not at all": total 90, 0 positive, 90 negative, PSDI 0, not positive', () => {
    const r = sheet({});
    expect([ind(r, 'TOTAL').score, ind(r, 'PCOUNT').score, ind(r, 'NCOUNT').score, ind(r, 'PSDI').score]).toEqual([90, 0, 90, 0]);
    expect(r.warnings).toEqual([]);
  });

  // Excess over 1 per factor: SOM 4+4+3, OC 4+4+1, IS 4+4, DEP 4+4+4, ANX 4+4+1, HOS 4+1, PHOB 4+2,
  // PAR 4+1, OTH 4+2 = 71 -> total 161; 22 positive items; every factor below 2 (SOM 23/12 = 1.92).
  const byTotal = { SOM: [5, 5, 4], OC: [5, 5, 2], IS: [5, 5], DEP: [5, 5, 5], ANX: [5, 5, 2], HOS: [5, 2], PHOB: [5, 3], PAR: [5, 2], OTH: [5, 3] };
  it('positive by the total alone: 161 > 160, 22 positive items, factors below 2', () => {
    const r = sheet(byTotal);
    expect(ind(r, 'TOTAL').score).toBe(161);
    expect(ind(r, 'PCOUNT').score).toBe(22);
    expect(ind(r, 'NCOUNT').score).toBe(68);
    // PSDI: positive items' scores (71 excess + 22) / 22 = 93 / 22 = 4.227 -> 4.23
    expect(ind(r, 'PSDI').score).toBe(4.23);
    expect(Math.max(...r.indicators.filter((i) => i.kind === 'factor').map((i) => i.score))).toBe(1.92);
    const [w] = screening(r);
    expect(w).toMatchObject({ warnlevel: 'attention', reason: { zh: expect.stringContaining('总分 161 > 160') } });
    expect(w.ruleSource).toContain('1986');
    expect(screening(r)).toHaveLength(1);
  });
  it('total 160 (OC excess 8): not positive', () => {
    const r = sheet({ ...byTotal, OC: [5, 5] });
    expect(ind(r, 'TOTAL').score).toBe(160);
    expect(r.warnings).toEqual([]);
  });

  // 44 items at 2 with every factor below 2: SOM 11, OC 9, IS 8, DEP 12, ANX 4 -> total 134.
  const twos = (n: number) => Array<number>(n).fill(2);
  const byCount = { SOM: twos(11), OC: twos(9), IS: twos(8), DEP: twos(12), ANX: twos(4) };
  it('positive by the positive-item count alone: 44 > 43, total 134', () => {
    const r = sheet(byCount);
    expect([ind(r, 'PCOUNT').score, ind(r, 'NCOUNT').score, ind(r, 'TOTAL').score, ind(r, 'PSDI').score]).toEqual([44, 46, 134, 2]);
    expect(screening(r)).toEqual([expect.objectContaining({ reason: expect.objectContaining({ en: expect.stringContaining('Positive items 44 > 43') }) })]);
  });
  it('43 positive items: not positive', () => {
    const r = sheet({ ...byCount, ANX: twos(3) });
    expect(ind(r, 'PCOUNT').score).toBe(43);
    expect(r.warnings).toEqual([]);
  });

  it('positive by one factor at 2.00 (somatization, all 12 items "a little bit")', () => {
    const r = sheet({ SOM: twos(12) });
    expect(ind(r, 'SOM').score).toBe(2);
    expect(ind(r, 'TOTAL').score).toBe(102);
    expect(screening(r)).toHaveLength(1);
    expect(sources(r)).toEqual(['screening']); // the factor band 2-2.99 itself does not warn
  });
  it('somatization 23/12 = 1.92: not positive', () => {
    const r = sheet({ SOM: twos(11) });
    expect(ind(r, 'SOM').score).toBe(1.92);
    expect(r.warnings).toEqual([]);
  });
  it('"其他" alone at 2.00 screens positive', () => {
    const r = sheet({ OTH: twos(7) });
    expect(ind(r, 'OTH').score).toBe(2);
    expect(screening(r)[0].reason.zh).toContain('其他（睡眠及饮食） 2 ≥ 2');
  });
  it('"其他" at 13/7 = 1.86: not positive', () => {
    expect(sheet({ OTH: twos(6) }).warnings).toEqual([]);
  });
  it('a factor at 3 keeps its band warning beside the screening warning', () => {
    const r = sheet({ DEP: Array<number>(13).fill(3) });
    expect(ind(r, 'DEP')).toMatchObject({ score: 3, level: 2 });
    expect(sources(r)).toEqual(['band', 'screening']);
  });
});

describe('GDS-15: 6-9 warrants follow-up (attention), 10 and above as before', () => {
  const gds = form('GDS15');
  /** The first n items answered the depressed way ("No" on the reversed items, "Yes" on the others). */
  const at = (n: number) => scoreSheet(gds, sheetOf(gds, (q) => ((q.no <= n) === !q.reverse ? 1 : 2)));
  it.each([
    [5, 0, []],
    [6, 1, ['band']],
    [9, 1, ['band']],
    [10, 3, ['band']],
  ])('score %i: level %i, warnings %j', (n, level, warned) => {
    const r = at(n);
    expect(ind(r, 'TOTAL')).toMatchObject({ score: n, level });
    expect(sources(r)).toEqual(warned);
  });
  it('the 6-9 band carries its source', () => {
    expect(gds.indicators[0].bands[1].source).toContain('msdmanuals.com');
  });
});

describe('an institution scale gets the same power: screening rules and conventions are validated', () => {
  const base = {
    formcode: 'OWN',
    formname: { zh: '自编', en: 'Own' },
    formtype: '01',
    instructions: { zh: '', en: '' },
    version: 1,
    licence: { zh: '', en: '' },
    source: '',
    fulltext: true,
    questions: [1, 2].map((no) => ({
      no,
      type: 1,
      required: true,
      text: { zh: `题${no}`, en: '' },
      options: [0, 1, 2].map((s) => ({ text: { zh: `${s}`, en: '' }, score: s })),
    })),
    indicators: [{ code: 'T', name: { zh: '总分', en: 'Total' }, kind: 'total', formula: { op: 'sum' } }],
  };
  it('a rule on an unknown indicator or a convention with gapped bands is refused', () => {
    expect(() =>
      parseDefinition({
        ...base,
        screening: [{ name: { zh: '阳性', en: '' }, level: 'critical', conditions: [{ kind: 'indicator', indicator: 'X', op: 'gte', value: 1 }], reason: { zh: '阳性', en: '' } }],
      }),
    ).toThrow(/unknown indicator X/);
    const gapped = [0, 2].map((min) => ({ min, max: min, level: 0, label: { zh: 'x', en: '' }, interpretation: { zh: '', en: '' }, advice: { zh: '', en: '' } }));
    expect(() =>
      parseDefinition({ ...base, conventions: [{ code: 'a', name: { zh: '甲', en: '' } }, { code: 'b', name: { zh: '乙', en: '' }, indicators: [{ code: 'T', bands: gapped }] }] }),
    ).toThrow(/convention b, indicator T/);
  });
  it('a critical-level screening rule of its own warns at its level', () => {
    const def = parseDefinition({
      ...base,
      screening: [
        { name: { zh: '阳性', en: 'Positive' }, level: 'critical', conditions: [{ kind: 'indicator', indicator: 'T', op: 'gte', value: 3 }], reason: { zh: '总分高', en: 'High total' }, source: 'ours' },
      ],
    });
    const r = scoreSheet(def, { answers: [{ no: 1, option: 3 }, { no: 2, option: 2 }] });
    expect(r.warnings).toEqual([{ source: 'screening', warnlevel: 'critical', ruleSource: 'ours', reason: { zh: '总分高（总分 3 ≥ 3）', en: 'High total (Total 3 ≥ 3)' } }]);
    expect(r.convention).toBeUndefined();
  });
});
