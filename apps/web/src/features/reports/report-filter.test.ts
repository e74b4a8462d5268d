import { describe, expect, it } from 'vitest';
import { decodeQuota, encodeQuota, filterOf, quotasInput } from './report-filter';

describe('report list filter', () => {
  it('keeps the indicator condition in the URL and reads it back', () => {
    const q = { formcode: 'PHQ9', quotacode: 'TOTAL', levels: [3, 2, 3] };
    expect(encodeQuota(q)).toBe('PHQ9~TOTAL~2.3');
    expect(decodeQuota('PHQ9~TOTAL~2.3')).toEqual({ formcode: 'PHQ9', quotacode: 'TOTAL', levels: [2, 3] });
    // An indicator without levels yet is kept (the level box opens next) but filters nothing.
    expect(decodeQuota(encodeQuota({ formcode: 'GAD7', quotacode: 'T', levels: [] }))).toEqual({ formcode: 'GAD7', quotacode: 'T', levels: [] });
    expect(quotasInput({ formcode: 'GAD7', quotacode: 'T', levels: [] })).toBeUndefined();
    expect(quotasInput(q)).toEqual([{ formcode: 'PHQ9', quotacode: 'TOTAL', levels: [3, 2, 3] }]);
    expect(encodeQuota(null)).toBeNull();
  });

  it('refuses a hand-edited condition', () => {
    for (const bad of ['', 'PHQ9', 'PHQ9~', 'PHQ9~T~9', 'PHQ9~T~x', 'PHQ9~T~1~extra', '~T~1']) expect(decodeQuota(bad)).toBeNull();
  });

  it('drops paging from the list input for exports and counts', () => {
    expect(filterOf({ appid: '000000002', level: 2, page: 3, pageSize: 50 })).toEqual({ appid: '000000002', level: 2 });
  });
});
