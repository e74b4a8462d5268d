import { describe, expect, it } from 'vitest';
import { allMenuCodes, menuTable } from '@xinli/contract';
import { generateRoutes, mayOpen, removedByType } from './routes';

const paths = (r: ReturnType<typeof generateRoutes>) => r.pages.map((p) => p.path);
const menuNames = (r: ReturnType<typeof generateRoutes>) => r.menus.map((m) => m.name);

describe('route generation (SPEC §2, §6)', () => {
  it('shows a route without a code to everyone and a coded one only to holders', () => {
    expect(mayOpen({}, [])).toBe(true);
    expect(mayOpen({ code: '00013' }, ['00013'])).toBe(true);
    expect(mayOpen({ code: '00013' }, ['00010'])).toBe(false);
    expect(mayOpen({ code: '00013' }, ['admin'])).toBe(true);
  });

  it('gives role admin every menu except the statistics variant of its type', () => {
    const r = generateRoutes({ roles: ['admin'], musertype: '005' });
    const all = menuTable.map((m) => m.name).filter((n) => n !== 'statisticsN');
    expect(menuNames(r)).toEqual(all);
    expect(r.denied).toContain('/statisticsN/statisticsN');
    expect(paths(r)).toContain('/authority/roleAdministration');
  });

  it('keeps only pages whose code the user holds, and drops menus left empty', () => {
    const r = generateRoutes({ roles: ['00013', '00046', '00023', '000311'], musertype: '001' });
    expect(menuNames(r)).toEqual(['echartsWeb', 'earlyWarning', 'authority']);
    expect(paths(r)).toEqual(['/echarts/web', '/earlyWarning/earlyWarning', '/authority/roleAdministration']);
    expect(r.denied).toContain('/authority/earlyWarningC');
    expect(r.denied).toContain('/organization/dept');
    expect(r.denied).toContain('/organization');
    expect(r.denied).not.toContain('/authority');
  });

  it('hides a child whose parent code is missing even when the child code is held', () => {
    const r = generateRoutes({ roles: ['000311'], musertype: '001' });
    expect(paths(r)).not.toContain('/authority/roleAdministration');
  });

  it('gives type 004 statisticsN and everyone else statistics1', () => {
    const roles = ['00010', '00011', '00012'];
    expect(removedByType('004')).toBe('statistics1');
    const elder = generateRoutes({ roles, musertype: '004' });
    expect(menuNames(elder)).toContain('statisticsN');
    expect(menuNames(elder)).not.toContain('statistics1');
    expect(elder.landing).toBe('/statisticsN/statisticsN');
    for (const type of ['001', '002', '003', '005']) {
      const other = generateRoutes({ roles, musertype: type });
      expect(menuNames(other)).toContain('statistics1');
      expect(menuNames(other)).not.toContain('statisticsN');
      expect(other.landing).toBe('/statistics/statistics');
    }
  });

  it('lands on the first page of the first menu', () => {
    const r = generateRoutes({ roles: allMenuCodes(), musertype: '005' });
    expect(r.landing).toBe('/Datastatistics/Datastatistics');
    const school = generateRoutes({ roles: ['00018', '001801', '00013', '00046'], musertype: '001' });
    expect(school.landing).toBe('/empower/individualAssessment');
  });

  it('lands FW01 on crisis warnings and JYJ on statistics', () => {
    const roles = ['00051', '00052', '00010', '00011', '00013', '00046'];
    expect(generateRoutes({ roles, musertype: '003', loginasmarker: 'FW01' }).landing).toBe('/earlyWarning/earlyWarning');
    expect(generateRoutes({ roles, musertype: '005', loginasmarker: 'JYJ' }).landing).toBe('/statistics/statistics');
    expect(generateRoutes({ roles, musertype: '005', loginasmarker: '' }).landing).toBe('/Datastatistics/Datastatistics');
  });

  it('redirects a menu to its first visible page and keeps hidden detail pages reachable', () => {
    const r = generateRoutes({ roles: ['00018', '0000000022', '001801'], musertype: '001' });
    const empower = r.menus.find((m) => m.name === 'empower')!;
    expect(empower.alwaysShow).toBe(true);
    expect(empower.redirect).toBe('/empower/youngsters');
    const report = r.pages.find((p) => p.name === 'usersReport')!;
    expect(report).toMatchObject({ hidden: true, activeMenu: '/empower/youngsters', parent: { path: '/empower' } });
  });

  it('sends a user without any page to 404', () => {
    const r = generateRoutes({ roles: [], musertype: '001' });
    expect(menuNames(r)).toEqual(['echartsWeb']);
    expect(r.landing).toBe('/404');
  });
});
