import { describe, expect, it } from 'vitest';
import { isActive, nextSteps, parseStateTab } from './case-state';

describe('case workflow as offered', () => {
  it('offers the steps of each state in order, none once closed', () => {
    expect(nextSteps('open')).toEqual(['acknowledge', 'startFollowUp', 'close']);
    expect(nextSteps('acknowledged')).toEqual(['startFollowUp', 'close']);
    expect(nextSteps('followup')).toEqual(['close']);
    expect(nextSteps('closed')).toEqual([]);
    expect(isActive('followup')).toBe(true);
    expect(isActive('closed')).toBe(false);
  });

  it('reads the state tab from the URL; anything else is the default (not closed)', () => {
    expect(parseStateTab('closed')).toBe('closed');
    expect(parseStateTab('all')).toBe('all');
    expect(parseStateTab(null)).toBe('');
    expect(parseStateTab('deleted')).toBe('');
  });
});
