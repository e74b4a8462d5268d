import { afterEach, describe, expect, it } from 'vitest';
import { allKeys, nest, parentKeys } from './tree';
import { formatTime, setTimeZone, timeZoneLabel } from './format';

type Dept = { deptid: string; parentid: string | null; deptname: string };
const rows: Dept[] = [
  { deptid: 'D1', parentid: null, deptname: 'school' },
  { deptid: 'D2', parentid: 'D1', deptname: 'centre' },
  { deptid: 'D3', parentid: 'D1', deptname: 'office' },
  { deptid: 'D4', parentid: 'D3', deptname: 'grade' },
  { deptid: 'H1', parentid: null, deptname: 'hospital' },
];
const tree = (list: Dept[]) =>
  nest(
    list,
    (d) => d.deptid,
    (d) => d.parentid,
  );

describe('nest', () => {
  it('nests rows under their parents in order, leaves without a children array', () => {
    const roots = tree(rows);
    expect(roots.map((r) => r.deptid)).toEqual(['D1', 'H1']);
    expect(roots[0].children?.map((c) => c.deptid)).toEqual(['D2', 'D3']);
    expect(roots[0].children?.[1].children?.map((c) => c.deptid)).toEqual(['D4']);
    expect(roots[0].children?.[0]).not.toHaveProperty('children');
    expect(roots[1]).not.toHaveProperty('children');
  });

  it('makes a row whose parent is filtered out a root, and never its own child', () => {
    const roots = tree([rows[3], rows[1], { deptid: 'X', parentid: 'X', deptname: 'loop' }]);
    expect(roots.map((r) => r.deptid)).toEqual(['D4', 'D2', 'X']);
    expect(roots[2]).not.toHaveProperty('children');
  });
});

describe('tree keys', () => {
  it('lists the parents (what expand-all opens) and every key', () => {
    const roots = tree(rows);
    expect(parentKeys(roots, (d) => d.deptid)).toEqual(['D1', 'D3']);
    expect(allKeys(roots, (d) => d.deptid)).toEqual(['D1', 'D2', 'D3', 'D4', 'H1']);
  });
});

describe('formatTime', () => {
  afterEach(() => setTimeZone(null));
  it('shows date and minutes in the institution’s zone (China by default), not the machine’s, and leaves a bad value as it is', () => {
    expect(formatTime('2026-11-21T00:05:00.000Z')).toBe('2026-11-21 08:05');
    expect(formatTime('2026-11-21T00:05:09.000Z', true)).toBe('2026-11-21 08:05:09');
    expect(timeZoneLabel()).toBe('UTC+8');
    expect(formatTime('not a time')).toBe('not a time');
  });
  it('follows the zone the session gives', () => {
    setTimeZone('America/New_York');
    expect(formatTime('2026-11-21T00:05:00.000Z')).toBe('2026-11-20 19:05');
    setTimeZone(undefined);
    expect(formatTime('2026-11-21T00:05:00.000Z')).toBe('2026-11-21 08:05');
  });
});
