import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, eachDay } from '../../kit/index.js';
import { spansOf, type Span } from './period.js';

/** The days a set of spans covers, over a bounded calendar (open ends are clipped to it). */
function daysOf(spans: Span[], lo: string, hi: string): string[] {
  const days = new Set<string>();
  for (const s of spans) {
    for (const d of eachDay(s.from && s.from > lo ? s.from : lo, s.to && s.to < hi ? s.to : hi)) {
      if (s.grain === 'd') days.add(d);
      // A monthly row stands for every day of its month.
      else if (d.endsWith('-01')) for (let x = d; x.slice(0, 7) === d.slice(0, 7); x = addDays(x, 1)) days.add(x);
    }
  }
  return [...days].filter((d) => d >= lo && d <= hi).sort();
}

describe('spansOf', () => {
  it('reads whole months from monthly rows and the partial ends from daily rows', () => {
    expect(spansOf('2026-08-20', '2026-11-10')).toEqual([
      { grain: 'd', from: '2026-08-20', to: '2026-08-31' },
      { grain: 'm', from: '2026-09-01', to: '2026-10-01' },
      { grain: 'd', from: '2026-11-01', to: '2026-11-10' },
    ]);
    expect(spansOf('2026-11-01', '2026-11-30')).toEqual([{ grain: 'm', from: '2026-11-01', to: '2026-11-01' }]);
    expect(spansOf('2026-11-05', '2026-12-10')).toEqual([{ grain: 'd', from: '2026-11-05', to: '2026-12-10' }]);
    expect(spansOf()).toEqual([{ grain: 'm', from: undefined, to: undefined }]);
    expect(spansOf('2026-02-15')).toEqual([
      { grain: 'd', from: '2026-02-15', to: '2026-02-28' },
      { grain: 'm', from: '2026-03-01', to: undefined },
    ]);
    expect(spansOf(undefined, '2024-02-28')).toEqual([
      { grain: 'm', from: undefined, to: '2024-01-01' },
      { grain: 'd', from: '2024-02-01', to: '2024-02-28' },
    ]);
  });

  it('covers exactly the days of any range, each once', () => {
    const lo = '2023-01-01';
    const hi = '2026-12-31';
    const day = fc.integer({ min: 0, max: 1400 }).map((n) => addDays(lo, n));
    fc.assert(
      fc.property(fc.option(day, { nil: undefined }), fc.option(day, { nil: undefined }), (a, b) => {
        const [start, end] = a && b && a > b ? [b, a] : [a, b];
        const spans = spansOf(start, end);
        const want = eachDay(start ?? lo, end ?? hi);
        expect(daysOf(spans, lo, hi)).toEqual(want);
        // No two spans of the same grain overlap, so no day is counted twice.
        const daily = spans.filter((s) => s.grain === 'd');
        expect(daily.every((x, i) => daily.every((y, j) => i === j || x.to! < y.from! || y.to! < x.from!))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
