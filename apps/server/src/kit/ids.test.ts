import { describe, expect, it } from 'vitest';
import { ID_PREFIXES, newId, newIds } from './ids.js';

describe('newId', () => {
  it('is the prefix and 12 upper-case hex digits', () => {
    for (const prefix of Object.keys(ID_PREFIXES) as (keyof typeof ID_PREFIXES)[]) {
      expect(newId(prefix)).toMatch(new RegExp(`^${prefix}[0-9A-F]{12}$`));
    }
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('D')));
    expect(ids.size).toBe(1000);
  });

  it('newIds makes n of them at once, in the same shape, none repeated', () => {
    const ids = newIds('C', 1000);
    expect(ids).toHaveLength(1000);
    for (const id of ids) expect(id).toMatch(/^C[0-9A-F]{12}$/);
    expect(new Set(ids).size).toBe(1000);
  });

  it('has prefixes no other prefix starts, so an id names one kind', () => {
    const prefixes = Object.keys(ID_PREFIXES);
    // A, D, F, PA, PL, QO, R, ST, U: a two-letter prefix never begins with a one-letter one
    // followed by a hex digit that could be mistaken for the random part.
    for (const p of prefixes) for (const q of prefixes) if (p !== q && p.startsWith(q)) expect(/^[0-9A-F]/.test(p.slice(q.length))).toBe(false);
  });
});
