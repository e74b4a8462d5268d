import { describe, expect, it } from 'vitest';
import { fittingItems, visibleTopItems } from './TopMenu';

describe('the top menu count', () => {
  it('is body width / 3 / 85 at most (SPEC §9)', () => {
    expect(visibleTopItems(1024)).toBe(4);
    expect(visibleTopItems(1440)).toBe(5);
  });
  it('keeps only the items that fit beside "more"', () => {
    // 1024 px, Chinese: four 80 px items and "more" (52 px) in 333 px -> three fit.
    expect(fittingItems([80, 80, 80, 80], 52, 333, 4)).toBe(3);
    // 1440 px, English: five 128 px items and "more" (56 px) in 641 px -> four fit.
    expect(fittingItems([101, 128, 128, 128, 128], 56, 641, 5)).toBe(4);
    expect(fittingItems([80, 80], 52, 1000, 2)).toBe(2);
    expect(fittingItems([300], 56, 200, 1)).toBe(0);
  });
});
