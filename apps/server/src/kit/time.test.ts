import { describe, expect, it } from 'vitest';
import { iso, todayIn } from './time.js';

describe('iso', () => {
  it('writes instants in UTC, from a Date or a stored string', () => {
    expect(iso(new Date(Date.UTC(2026, 4, 1, 8)))).toBe('2026-05-01T08:00:00.000Z');
    expect(iso('2026-05-01 16:00:00+08')).toBe('2026-05-01T08:00:00.000Z');
  });
});

describe('todayIn', () => {
  it('is the calendar date in China, which runs ahead of UTC', () => {
    expect(todayIn(new Date('2026-05-01T15:59:59Z'))).toBe('2026-05-01');
    expect(todayIn(new Date('2026-05-01T16:00:00Z'))).toBe('2026-05-02');
  });
});
