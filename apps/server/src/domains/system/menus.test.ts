import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type MenuTreeNode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';

const codesOf = (nodes: MenuTreeNode[]): string[] => nodes.flatMap((n) => [n.code, ...codesOf(n.children)]);
const find = (nodes: MenuTreeNode[], code: string): MenuTreeNode | undefined =>
  nodes.map((n) => (n.code === code ? n : find(n.children, code))).find(Boolean);

describe.each(engines())('menu management on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  it('answers the menu tree of the codes the caller holds, with codes, titles, paths and hidden', async () => {
    const school = await s.login('school');
    const res = await s.call('as.m.system.menu.selectMenuList', {}, school.token);
    expect(res.errorCode).toBe(0);
    const authority = find(res.data, '00023')!;
    expect(authority).toMatchObject({ title: '权限管理', titlezh: '权限管理', titleen: 'Permissions', path: '/authority', hidden: false });
    expect(authority.children.map((c) => [c.code, c.path, c.title])).toEqual([
      ['000311', 'roleAdministration', '角色管理'],
      ['00031', 'earlyWarningC', '菜单管理'],
      ['000314', 'auditLog', '审计日志'],
    ]);
    const codes = codesOf(res.data);
    expect(codes).toEqual(expect.arrayContaining(school.permissions.map((p) => p.component)));
    expect(codes).not.toContain('00020'); // provider management: the school does not hold it
    const archives = find(res.data, '00008')!;
    expect(archives.children.find((c) => c.code === '000000002')?.hidden).toBe(false);
  });

  it('speaks English when asked, and the super account sees every menu', async () => {
    const admin = await s.login('admin');
    const res = await s.call('as.m.system.menu.selectMenuList', {}, admin.token, { 'accept-language': 'en-US' });
    expect(find(res.data, '00020')?.title).toBe('Providers');
    expect(find(res.data, '00029')).toMatchObject({ hidden: true, path: '/period/periodManagement' });
  });

  it('filters by title in either language, keeping the ancestors of matches', async () => {
    const school = await s.login('school');
    const zh = await s.call('as.m.system.menu.selectMenuList', { title: '角色' }, school.token);
    expect(zh.data.map((n: MenuTreeNode) => n.code)).toEqual(['00023']);
    expect(codesOf(zh.data)).toEqual(['00023', '000311']);
    const en = await s.call('as.m.system.menu.selectMenuList', { title: 'department' }, school.token);
    expect(codesOf(en.data)).toEqual(['00048', '000312']);
    const none = await s.call('as.m.system.menu.selectMenuList', { title: '服务商' }, school.token);
    expect(none.data).toEqual([]);
  });

  it('refuses a caller without menu management, and invalid input', async () => {
    const teacher = await s.login('teacher');
    expect((await s.call('as.m.system.menu.selectMenuList', {}, teacher.token)).errorCode).toBe(ErrorCode.permissionDenied);
    const hospital = await s.login('hospital'); // holds administration but not permission management
    expect((await s.call('as.m.system.menu.selectMenuList', {}, hospital.token)).errorCode).toBe(ErrorCode.permissionDenied);
    const school = await s.login('school');
    expect((await s.call('as.m.system.menu.selectMenuList', { title: 'x'.repeat(31) }, school.token)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.system.menu.selectMenuList', { code: '00023' }, school.token)).errorCode).toBe(ErrorCode.validation);
  });
});
