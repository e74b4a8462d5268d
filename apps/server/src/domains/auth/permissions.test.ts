import { describe, expect, it } from 'vitest';
import { allMenuCodes } from '@xinli/contract';
import { boundByActor, grantsOf, roleGives, typeCodes } from './permissions.js';

const school = { musercode: 'I1', musertype: '001', issuper: false };

describe('permission resolution', () => {
  it('gives an account its own codes, and type 005 the extra code 0000901', () => {
    expect(grantsOf(school, null, { own: ['00018'], roles: [] })).toEqual({ codes: ['00018'], roles: ['00018'] });
    expect(grantsOf({ ...school, musertype: '005' }, null, { own: ['00018'], roles: [] }).codes).toEqual(['00018', '0000901']);
    expect(typeCodes('004')).toEqual([]);
  });

  it('gives the super account every menu code and the admin role', () => {
    const g = grantsOf({ ...school, issuper: true }, null, { own: [], roles: [] });
    expect(g.roles[0]).toBe('admin');
    expect(g.codes).toEqual(expect.arrayContaining(allMenuCodes()));
  });

  it('bounds a staff user’s role codes by its institution’s codes', () => {
    const g = grantsOf(school, 'U1', { own: ['00018', '00013'], roles: [{ rolekey: 'counsellor', codes: ['00018', '00020'] }, { rolekey: 'other', codes: [] }] });
    expect(g.codes).toEqual(['00018']);
    expect(g.roles).not.toContain('admin');
  });

  it('gives a staff user with the admin role key all its institution’s codes, not more', () => {
    expect(grantsOf(school, 'U1', { own: ['00018', '00013'], roles: [{ rolekey: 'admin', codes: [] }] }).codes).toEqual(['00018', '00013']);
  });

  it('gives a staff user without roles nothing', () => {
    expect(grantsOf(school, 'U1', { own: ['00018'], roles: [] }).codes).toEqual([]);
  });

  it('reads no code out of a role key: k:000313, admin:x, x:admin and Admin give nothing', () => {
    const own = ['00018', '000313'];
    for (const rolekey of ['k:000313', 'admin:x', 'x:admin', 'admin:', ':admin', 'Admin', '000313', '*', '%']) {
      expect(grantsOf(school, 'U1', { own, roles: [{ rolekey, codes: [] }] }).codes, rolekey).toEqual([]);
      expect(roleGives(new Set(own), { rolekey, codes: [] }), rolekey).toEqual([]);
    }
  });

  it('bounds a login-as session by what its actor holds; a super actor bounds nothing', () => {
    const target = { codes: ['00018', '000313', '000311'], roles: ['00018', '000313', '000311'] };
    expect(boundByActor(target, { codes: ['000313', '00021'], roles: ['000313', '00021'] }).codes).toEqual(['000313']);
    expect(boundByActor(target, { codes: [], roles: ['admin'] })).toEqual(target);
    expect(boundByActor(target, null)).toEqual(target);
  });
});
