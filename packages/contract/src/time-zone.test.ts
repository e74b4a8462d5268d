import { describe, expect, it } from 'vitest';
import { INSTITUTION_TIME_ZONE, timeInZone, zoneLabel } from './time-zone.js';

describe('times in the institution’s zone', () => {
  it('formats an instant in China time, whatever the machine’s zone', () => {
    expect(INSTITUTION_TIME_ZONE).toBe('Asia/Shanghai');
    expect(timeInZone('2026-11-25T01:30:05.000Z')).toBe('2026-11-25 09:30');
    expect(timeInZone('2026-11-25T01:30:05.000Z', INSTITUTION_TIME_ZONE, true)).toBe('2026-11-25 09:30:05');
    // Past midnight in China, still the day before in UTC.
    expect(timeInZone(new Date('2026-11-24T16:00:00.000Z'))).toBe('2026-11-25 00:00');
  });

  it('formats in another zone when asked, and leaves what is no time alone', () => {
    expect(timeInZone('2026-11-25T01:30:00.000Z', 'America/New_York')).toBe('2026-11-24 20:30');
    expect(timeInZone('not a time')).toBe('not a time');
  });

  it('names the offset', () => {
    expect(zoneLabel()).toBe('UTC+8');
    expect(zoneLabel('America/New_York', new Date('2026-11-25T00:00:00Z'))).toBe('UTC-5');
    expect(zoneLabel('UTC')).toBe('UTC');
  });
});
