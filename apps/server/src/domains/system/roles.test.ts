import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ErrorCode, type MenuTreeNode, type RoleRow } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { md5Upper } from '../auth/index.js';
import { auditLog } from '../audit/tables.js';
import { role, roleMenu } from './tables.js';

const codesOf = (nodes: MenuTreeNode[]): string[] => nodes.flatMap((n) => [n.code, ...codesOf(n.children)]);

describe.each(engines())('role management on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let provider: string;
  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    provider = (await s.login('provider')).token;
  });
  afterAll(() => s?.close());

  const roleCodes = async (roleid: string) =>
    (await s.database.db.select({ code: roleMenu.code }).from(roleMenu).where(eq(roleMenu.roleid, roleid))).map((r) => r.code).sort();
  const rolesOf = async (musercode: string) => s.database.db.select().from(role).where(eq(role.musercode, musercode));

  it('lists the caller’s roles, paged and filtered, with how many users hold each', async () => {
    const all = await s.call('as.m.system.role.selectRoleList', {}, school);
    expect(all.errorCode).toBe(0);
    expect(all.data.total).toBe(3);
    expect(all.data.rows.map((r: RoleRow) => r.roleid)).toEqual(['R0002', 'R0001', 'R0003']);
    expect(all.data.rows[1]).toMatchObject({ rolename: '心理咨询师', rolekey: 'counsellor', enabled: 1, usercount: 1, insname: '滨江第一中学', musercode: 'I0001' });
    const page2 = await s.call('as.m.system.role.selectRoleList', { page: 2, pageSize: 2 }, school);
    expect(page2.data).toMatchObject({ total: 3, rows: [{ roleid: 'R0003' }] });
    expect((await s.call('as.m.system.role.selectRoleList', { rolename: '咨询' }, school)).data.rows.map((r: RoleRow) => r.roleid)).toEqual(['R0001']);
    expect((await s.call('as.m.system.role.selectRoleList', { rolekey: 'HEAD' }, school)).data.rows.map((r: RoleRow) => r.roleid)).toEqual(['R0003']);
    expect((await s.call('as.m.system.role.selectRoleList', { enabled: 0 }, school)).data.total).toBe(0);
    // '%' is taken literally, not as a wildcard.
    expect((await s.call('as.m.system.role.selectRoleList', { rolename: '%' }, school)).data.total).toBe(0);
  });

  it('shows a provider its institutions’ roles, and hides other institutions’ from an institution', async () => {
    const all = await s.call('as.m.system.role.selectRoleList', { pageSize: 50 }, provider);
    expect(all.data.rows.map((r: RoleRow) => r.musercode).sort()).toEqual(['I0001', 'I0001', 'I0001', 'I0002']);
    const hospital = await s.call('as.m.system.role.selectRoleList', { musercode: 'I0002' }, provider);
    expect(hospital.data.rows.map((r: RoleRow) => r.roleid)).toEqual(['R0101']);
    expect((await s.call('as.m.system.role.selectRoleList', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.role.selectRoleList', { musercode: 'I0004' }, provider)).errorCode).toBe(ErrorCode.notFound);
  });

  it('refuses every role action to a caller without role management', async () => {
    const teacher = (await s.login('teacher')).token;
    const calls: [string, Record<string, unknown>][] = [
      ['as.m.system.role.selectRoleList', {}],
      ['as.m.system.role.insertRole', { rolename: 'x', rolekey: 'x' }],
      ['as.m.system.role.updateRole', { roleid: 'R0001', rolename: 'x' }],
      ['as.m.system.role.deleteRoleById', { roleid: 'R0003' }],
      ['as.m.system.role.updateMuserMenu', { roleid: 'R0001', codes: [] }],
      ['as.m.system.role.selectRoleMenuTreeselect', { roleid: 'R0001' }],
      ['as.m.system.role.selectMuserMenuTreeselect', {}],
    ];
    for (const [name, body] of calls) expect((await s.call(name as never, body, teacher)).errorCode, name).toBe(ErrorCode.permissionDenied);
    expect(await roleCodes('R0001')).toHaveLength(7);
    expect((await rolesOf('I0001')).find((r) => r.roleid === 'R0001')?.rolename).toBe('心理咨询师');
  });

  it('creates a role with menus; a new staff user holding it signs in with exactly those codes', async () => {
    const codes = ['00040', '00041', '00042', '00018', '0000000022'];
    const created = await s.call('as.m.system.role.insertRole', { rolename: '团体测评员', rolekey: 'groupworker', sort: 3, remark: '负责团体测评', codes }, school);
    expect(created.errorCode).toBe(0);
    const { roleid } = created.data;
    expect(roleid).toMatch(/^R[0-9A-F]{12}$/);
    expect(await roleCodes(roleid)).toEqual([...codes].sort());
    const user = await s.call('as.m.system.user.insertUser', { sysusername: 'groupstaff', pwd: md5Upper('Group123'), realname: '赵老师', deptid: 'D0003', roleids: [roleid] }, school);
    expect(user.errorCode).toBe(0);
    const signedIn = await s.login('groupstaff', 'Group123');
    expect(signedIn.permissions.map((p) => p.component).sort()).toEqual([...codes].sort());
    expect(signedIn).toMatchObject({ musercode: 'I0001', userid: user.data.userid, sysusername: 'groupstaff' });
    const [audit] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'as.m.system.role.insertRole'), eq(auditLog.result, 'ok')));
    expect(audit.detail).toMatchObject({ roleid, target: 'I0001', codes });
  });

  it('refuses codes the caller or the institution lacks, and changes nothing', async () => {
    const before = (await rolesOf('I0001')).length;
    const lacking = await s.call('as.m.system.role.insertRole', { rolename: '服务商', rolekey: 'svc', codes: ['00018', '00020'] }, school);
    expect(lacking.errorCode).toBe(ErrorCode.permissionDenied);
    expect(lacking.errorMsg).toContain('00020');
    // The provider holds 00023, but the hospital does not: a hospital role cannot give it.
    const forHospital = await s.call('as.m.system.role.insertRole', { rolename: '权限员', rolekey: 'perm', codes: ['00023'], musercode: 'I0002' }, provider);
    expect(forHospital.errorCode).toBe(ErrorCode.permissionDenied);
    const update = await s.call('as.m.system.role.updateMuserMenu', { roleid: 'R0003', codes: ['00018', '00020'] }, school);
    expect(update.errorCode).toBe(ErrorCode.permissionDenied);
    expect((await rolesOf('I0001')).length).toBe(before);
    expect((await rolesOf('I0002')).length).toBe(1);
    expect(await roleCodes('R0003')).toEqual(['00008', '00018', '000000002', '0000000022'].sort());
  });

  it('lets a provider create a role for one of its institutions', async () => {
    const res = await s.call('as.m.system.role.insertRole', { rolename: '随访护士', rolekey: 'nurse', codes: ['00015', '00017'], musercode: 'I0002' }, provider);
    expect(res.errorCode).toBe(0);
    expect((await rolesOf('I0002')).map((r) => r.rolekey).sort()).toEqual(['doctor', 'nurse']);
    expect((await s.call('as.m.system.role.insertRole', { rolename: 'x', rolekey: 'x', musercode: 'I0004' }, provider)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.role.insertRole', { rolename: 'x', rolekey: 'x', musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('rejects invalid input, duplicates and the reserved admin key, changing nothing', async () => {
    const before = await rolesOf('I0001');
    const bad: Record<string, unknown>[] = [
      { rolename: '', rolekey: 'k' },
      { rolename: 'n', rolekey: '1abc' },
      { rolename: 'n', rolekey: 'k', codes: ['abc'] },
      { rolename: 'n', rolekey: 'k', enabled: 2 },
      { rolename: 'n'.repeat(31), rolekey: 'k' },
      { rolename: 'n', rolekey: 'k', roleid: 'R9' },
    ];
    for (const body of bad) expect((await s.call('as.m.system.role.insertRole', body, school)).errorCode, JSON.stringify(body)).toBe(ErrorCode.validation);
    const dupName = await s.call('as.m.system.role.insertRole', { rolename: '心理咨询师', rolekey: 'other' }, school, { 'accept-language': 'en-US' });
    expect(dupName).toMatchObject({ errorCode: ErrorCode.conflict, errorMsg: 'A role named "心理咨询师" already exists' });
    expect((await s.call('as.m.system.role.insertRole', { rolename: '新角色', rolekey: 'Counsellor' }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.system.role.insertRole', { rolename: '超管', rolekey: 'admin' }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect(await rolesOf('I0001')).toEqual(before);
  });

  it('updates a role’s fields and codes; another institution’s role is not found', async () => {
    const res = await s.call('as.m.system.role.updateRole', { roleid: 'R0003', rolename: '班主任（高一）', sort: 5, codes: ['00018', '0000000022'] }, school);
    expect(res.errorCode).toBe(0);
    const [row] = (await rolesOf('I0001')).filter((r) => r.roleid === 'R0003');
    expect(row).toMatchObject({ rolename: '班主任（高一）', rolekey: 'headteacher', sort: 5, enabled: 1 });
    expect(await roleCodes('R0003')).toEqual(['00018', '0000000022'].sort());
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0101', rolename: 'x' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0003', rolename: '心理咨询师' }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0003', rolekey: 'admin' }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0003', sort: -1 }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await rolesOf('I0001')).find((r) => r.roleid === 'R0003')?.sort).toBe(5);
  });

  it('protects the built-in administrator role', async () => {
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0002', codes: ['00018'] }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0002', enabled: 0 }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.system.role.updateMuserMenu', { roleid: 'R0002', codes: [] }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0002', rolename: '校级管理员' }, school)).errorCode).toBe(0);
  });

  it('disabling a role takes its codes away from its users at once', async () => {
    const teacher = (await s.login('teacher')).token;
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0001', enabled: 0 }, school)).errorCode).toBe(0);
    const again = await s.login('teacher');
    expect(again.permissions).toEqual([]);
    expect((await s.call('as.m.system.ping', {}, teacher)).errorCode).toBe(0);
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0001', enabled: 1 }, school)).errorCode).toBe(0);
    expect((await s.login('teacher')).permissions).toHaveLength(7);
  });

  it('refuses to delete a role while users hold it, with a clear message', async () => {
    const res = await s.call('as.m.system.role.deleteRoleById', { roleid: 'R0001' }, school);
    expect(res.errorCode).toBe(ErrorCode.conflict);
    expect(res.errorMsg).toBe('角色“心理咨询师”已分配给 1 个用户，不能删除；请先在用户管理中取消分配');
    const en = await s.call('as.m.system.role.deleteRoleById', { roleid: 'R0001' }, school, { 'accept-language': 'en-US' });
    expect(en.errorMsg).toContain('held by 1 user(s)');
    expect(await roleCodes('R0001')).toHaveLength(7);
    expect((await s.call('as.m.system.role.deleteRoleById', { roleid: 'R0002' }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.system.role.deleteRoleById', { roleid: 'R0101' }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('deletes an unused role with its codes, audited', async () => {
    const res = await s.call('as.m.system.role.deleteRoleById', { roleid: 'R0003' }, school);
    expect(res.errorCode).toBe(0);
    expect((await rolesOf('I0001')).find((r) => r.roleid === 'R0003')).toBeUndefined();
    expect(await roleCodes('R0003')).toEqual([]);
    const audits = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'as.m.system.role.deleteRoleById'), eq(auditLog.result, 'ok')));
    expect(audits.map((a) => a.detail)).toContainEqual({ roleid: 'R0003', rolename: '班主任（高一）' });
    expect((await s.call('as.m.system.role.deleteRoleById', { roleid: 'R0003' }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('sets a role’s codes with updateMuserMenu; its users get them at their next sign-in', async () => {
    const res = await s.call('as.m.system.role.updateMuserMenu', { roleid: 'R0001', codes: ['00018', '0000000022', '001801'] }, school);
    expect(res.errorCode).toBe(0);
    expect(await roleCodes('R0001')).toEqual(['00018', '0000000022', '001801'].sort());
    expect((await s.login('teacher')).permissions.map((p) => p.component).sort()).toEqual(['00018', '0000000022', '001801'].sort());
    expect((await s.call('as.m.system.role.updateMuserMenu', { roleid: 'R0101', codes: [] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.role.updateMuserMenu', { roleid: 'R0001', codes: '00018' }, school)).errorCode).toBe(ErrorCode.validation);
    expect(await roleCodes('R0101')).toHaveLength(6);
  });

  it('answers the menu tree a role may be given, with its checked codes', async () => {
    const res = await s.call('as.m.system.role.selectRoleMenuTreeselect', { roleid: 'R0001' }, school);
    expect(res.errorCode).toBe(0);
    expect(res.data.checkedKeys.sort()).toEqual(['00018', '0000000022', '001801'].sort());
    const offered = codesOf(res.data.menus);
    expect(offered).toEqual(expect.arrayContaining(['00023', '000311', '00048', '000313', '00013']));
    expect(offered).not.toContain('00020');
    expect(offered).not.toContain('0000000011'); // maternity: the school does not hold it
    const hospitalRole = await s.call('as.m.system.role.selectRoleMenuTreeselect', { roleid: 'R0101' }, provider);
    expect(codesOf(hospitalRole.data.menus)).not.toContain('00023');
    expect(codesOf(hospitalRole.data.menus)).toContain('0000000011');
    expect((await s.call('as.m.system.role.selectRoleMenuTreeselect', { roleid: 'R0101' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.role.selectRoleMenuTreeselect', { roleid: '' }, school)).errorCode).toBe(ErrorCode.validation);
  });

  it('answers the menu tree of an account’s codes for a new role', async () => {
    const mine = await s.call('as.m.system.role.selectMuserMenuTreeselect', {}, school, { 'accept-language': 'en-US' });
    const schoolCodes = (await s.login('school')).permissions.map((p) => p.component);
    expect(codesOf(mine.data.menus).sort()).toEqual(schoolCodes.filter((c) => codesOf(mine.data.menus).includes(c)).sort());
    expect(codesOf(mine.data.menus)).toContain('000311');
    expect(mine.data.menus.find((n: MenuTreeNode) => n.code === '00023')?.title).toBe('Permissions');
    const hospital = await s.call('as.m.system.role.selectMuserMenuTreeselect', { musercode: 'I0002' }, provider);
    expect(codesOf(hospital.data.menus)).toEqual(expect.arrayContaining(['00048', '000312', '0000000011']));
    expect(codesOf(hospital.data.menus)).not.toContain('00023');
    expect((await s.call('as.m.system.role.selectMuserMenuTreeselect', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('bounds a staff role manager by its own codes', async () => {
    const made = await s.call('as.m.system.role.insertRole', { rolename: '角色管理员', rolekey: 'rolemgr', codes: ['00023', '000311', '00018', '0000000022'] }, school);
    await s.call('as.m.system.user.insertUser', { sysusername: 'rolemgr', pwd: md5Upper('Role1234'), realname: '钱老师', roleids: [made.data.roleid] }, school);
    const mgr = (await s.login('rolemgr', 'Role1234')).token;
    // It may give what it holds ...
    expect((await s.call('as.m.system.role.insertRole', { rolename: '测评员', rolekey: 'assessor', codes: ['00018', '0000000022'] }, mgr)).errorCode).toBe(0);
    // ... but not what only the institution holds,
    expect((await s.call('as.m.system.role.insertRole', { rolename: '预警员', rolekey: 'warner', codes: ['00013'] }, mgr)).errorCode).toBe(ErrorCode.permissionDenied);
    // and it cannot change a role that gives more than it holds.
    expect((await s.call('as.m.system.role.updateRole', { roleid: 'R0101', rolename: 'x' }, mgr)).errorCode).toBe(ErrorCode.notFound);
    const counsellor = await s.call('as.m.system.role.updateRole', { roleid: 'R0001', rolename: '咨询师' }, mgr);
    expect(counsellor.errorCode).toBe(ErrorCode.permissionDenied);
    const tree = await s.call('as.m.system.role.selectMuserMenuTreeselect', {}, mgr);
    expect(codesOf(tree.data.menus).sort()).toEqual(['00018', '00023', '000311', '0000000022'].sort());
  });
});
