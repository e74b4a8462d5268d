import { describe, expect, it } from 'vitest';
import { protect, suppressed } from './summary.js';

describe('small cells of an oversight summary', () => {
  it('withholds counts from 1 to min - 1, keeps 0 and larger ones', () => {
    expect([0, 1, 4, 5, 86].map((n) => suppressed(n, 5))).toEqual([0, null, null, 5, 86]);
  });
  it('withholds a second cell when one alone would be the total minus the rest', () => {
    expect(protect([86, 2], 5)).toEqual([null, null]);
    expect(protect([88, 0, 0, 0], 5)).toEqual([88, 0, 0, 0]);
    expect(protect([40, 3, 9, 20], 5)).toEqual([40, null, null, 20]);
    expect(protect([40, 3, 2, 20], 5)).toEqual([40, null, null, 20]);
    expect(protect([3], 5)).toEqual([null]);
  });
});
