import { describe, expect, it } from 'vitest';
import { allMenuCodes } from '@xinli/contract';
import { grantsOf, typeCodes } from './permissions.js';

const school = { musercode: 'I1', musertype: '001', issuper: false };

describe('permission resolution', () => {
  it('gives an account its own codes, and type 005 the extra code 0000901', () => {
    expect(grantsOf(school, null, { own: ['00018'], rolecodes: [] })).toEqual({ codes: ['00018'], roles: ['00018'] });
    expect(grantsOf({ ...school, musertype: '005' }, null, { own: ['00018'], rolecodes: [] }).codes).toEqual(['00018', '0000901']);
    expect(typeCodes('004')).toEqual([]);
  });

  it('gives the super account every menu code and the admin role', () => {
    const g = grantsOf({ ...school, issuper: true }, null, { own: [], rolecodes: [] });
    expect(g.roles[0]).toBe('admin');
    expect(g.codes).toEqual(expect.arrayContaining(allMenuCodes()));
  });

  it('bounds a staff user’s role codes by its institution’s codes', () => {
    const g = grantsOf(school, 'U1', { own: ['00018', '00013'], rolecodes: ['counsellor:00018', 'counsellor:00020', 'other:'] });
    expect(g.codes).toEqual(['00018']);
    expect(g.roles).not.toContain('admin');
  });

  it('gives a staff user with the admin role key all its institution’s codes, not more', () => {
    expect(grantsOf(school, 'U1', { own: ['00018', '00013'], rolecodes: ['admin:'] }).codes).toEqual(['00018', '00013']);
  });

  it('gives a staff user without roles nothing', () => {
    expect(grantsOf(school, 'U1', { own: ['00018'], rolecodes: [] }).codes).toEqual([]);
  });
});
