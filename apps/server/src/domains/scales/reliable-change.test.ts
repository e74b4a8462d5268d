import { describe, expect, it } from 'vitest';
import { againstNorm, changeBasis, changesAlong, reliableChange, reliableChangeIndex } from './reliable-change.js';
import { builtInNorms } from './norms-library.js';

/**
 * Jacobson–Truax by hand. With SD = 10 and r = 0.98: S_diff = 10 · √2 · √0.02 = 10 · √0.04 = 2,
 * so a change of 3.92 is RCI 1.96 exactly, 5 is 2.5 and 3.9 is 1.95.
 */
const rule = { code: 'TOTAL', reliability: 0.98, reliabilitysource: 'test', cutoff: 160, higherworse: true };

describe('reliable change index', () => {
  it('is (x2 − x1) / (SD · √2 · √(1 − r))', () => {
    expect(reliableChangeIndex(100, 105, 10, 0.98)).toBeCloseTo(2.5, 10);
    expect(reliableChangeIndex(100, 95, 10, 0.98)).toBeCloseTo(-2.5, 10);
    // SCL-90 on the 1986 norm (SD 38.76, r 0.98): S_diff = 7.752, so 120 → 172 is 52 / 7.752 = 6.71.
    expect(reliableChangeIndex(120, 172, 38.76, 0.98)).toBeCloseTo(6.708, 3);
  });

  it('labels a rise at 1.96 and above as reliable deterioration, below it as no reliable change', () => {
    expect(reliableChange(rule, 10, 100, 103.92)).toMatchObject({ rci: 1.96, label: 'deteriorated', crossing: null });
    expect(reliableChange(rule, 10, 100, 105)).toMatchObject({ rci: 2.5, label: 'deteriorated' });
    expect(reliableChange(rule, 10, 100, 103.9)).toMatchObject({ rci: 1.95, label: 'unchanged' });
    expect(reliableChange(rule, 10, 100, 100)).toMatchObject({ rci: 0, label: 'unchanged' });
  });

  it('labels a fall as reliable improvement on a symptom scale, and the reverse where higher is better', () => {
    expect(reliableChange(rule, 10, 105, 100)).toMatchObject({ rci: -2.5, label: 'improved' });
    expect(reliableChange(rule, 10, 103.92, 100)).toMatchObject({ rci: -1.96, label: 'improved' });
    expect(reliableChange(rule, 10, 103.9, 100)).toMatchObject({ label: 'unchanged' });
    const wellbeing = { ...rule, higherworse: false, cutoff: 40 };
    expect(reliableChange(wellbeing, 10, 100, 105)).toMatchObject({ label: 'improved' });
    expect(reliableChange(wellbeing, 10, 105, 100)).toMatchObject({ label: 'deteriorated' });
  });

  it('marks a crossing of the clinical cut-off (above 160 is clinical), whether or not the change is reliable', () => {
    expect(reliableChange(rule, 10, 150, 170)).toMatchObject({ label: 'deteriorated', crossing: 'into' });
    expect(reliableChange(rule, 10, 170, 150)).toMatchObject({ label: 'improved', crossing: 'out' });
    expect(reliableChange(rule, 10, 159, 161)).toMatchObject({ label: 'unchanged', crossing: 'into' });
    // 160 itself is not above the cut-off.
    expect(reliableChange(rule, 10, 150, 160)).toMatchObject({ crossing: null });
    expect(reliableChange(rule, 10, 170, 180)).toMatchObject({ crossing: null });
    expect(reliableChange({ ...rule, cutoff: null }, 10, 150, 170)).toMatchObject({ crossing: null });
    // Where lower is worse, below the cut-off is clinical.
    expect(reliableChange({ ...rule, higherworse: false, cutoff: 40 }, 10, 45, 35)).toMatchObject({ crossing: 'into', label: 'deteriorated' });
  });

  it('labels each consecutive pair along a series; the first point and a missing score have none', () => {
    const basis = changeBasis({ scales: [{ code: 'TOTAL', sd: 10 }], change: rule });
    const out = changesAlong(basis, [100, 105, null, 104, 100]);
    expect(out.map((c) => c?.label ?? null)).toEqual([null, 'deteriorated', null, null, 'improved']);
    expect(changesAlong(null, [100, 200]).every((c) => c === null)).toBe(true);
    // A rule whose indicator has no norm SD judges nothing.
    expect(changeBasis({ scales: [{ code: 'GSI', sd: 1 }], change: rule })).toBeNull();
  });

  it('gives z and T against a norm (T = 50 + 10z), skipping indicators the norm lacks', () => {
    const scl90 = builtInNorms.find((n) => n.formcode === 'SCL90')!;
    const rows = againstNorm(
      [
        { code: 'TOTAL', name: '总分', score: 172 },
        { code: 'DEP', name: '抑郁', score: 2.09 },
        { code: 'OTH', name: '其他', score: 2 },
      ],
      scl90.scales,
    );
    // (172 − 129.96) / 38.76 = 1.0846 → 1.08, T 60.8; (2.09 − 1.50) / 0.59 = 1.00, T 60.
    expect(rows).toEqual([
      { code: 'TOTAL', name: '总分', score: 172, mean: 129.96, sd: 38.76, z: 1.08, t: 60.8 },
      { code: 'DEP', name: '抑郁', score: 2.09, mean: 1.5, sd: 0.59, z: 1, t: 60 },
    ]);
  });
});
