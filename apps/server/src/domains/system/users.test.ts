import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ErrorCode, type DeptTreeNode, type UserRow } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { md5Upper } from '../auth/index.js';
import { auditLog } from '../audit/tables.js';
import { openContact } from './contact.js';
import { sysuser, sysuserRole } from './tables.js';

const names = (rows: UserRow[]) => rows.map((r) => r.sysusername).sort();

describe.each(engines())('staff user management on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let provider: string;
  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    provider = (await s.login('provider')).token;
  });
  afterAll(() => s?.close());

  const usersOf = async (musercode: string) => s.database.db.select().from(sysuser).where(eq(sysuser.musercode, musercode));
  // Phone and email are stored sealed (contact.ts): read back opened.
  const user = async (sysusername: string) => {
    const [row] = await s.database.db.select().from(sysuser).where(eq(sysuser.sysusername, sysusername));
    return row && openContact(row);
  };
  const rolesOfUser = async (userid: string) => (await s.database.db.select().from(sysuserRole).where(eq(sysuserRole.userid, userid))).map((r) => r.roleid).sort();
  const ping = async (token: string) => (await s.call('as.m.system.ping', {}, token)).errorCode;

  it('lists the caller’s staff with masked phones, department and roles', async () => {
    const res = await s.call('as.m.system.user.selectUserList', {}, school);
    expect(res.errorCode).toBe(0);
    expect(res.data.total).toBe(2);
    const teacher = res.data.rows.find((r: UserRow) => r.sysusername === 'teacher');
    expect(teacher).toMatchObject({ userid: 'U0001', realname: '王老师', phonenumber: '138****5678', deptid: 'D0002', deptname: '心理健康中心', enabled: 1, sex: '02', insname: '滨江第一中学', roles: [{ roleid: 'R0001', rolename: '心理咨询师' }] });
    expect(JSON.stringify(res.data)).not.toContain('13812345678');
    expect(JSON.stringify(res.data)).not.toContain('pwdhash');
  });

  it('filters by department subtree, names, phone and state', async () => {
    const q = async (body: Record<string, unknown>) => names((await s.call('as.m.system.user.selectUserList', body, school)).data.rows);
    expect(await q({ deptid: 'D0001' })).toEqual(['schooladmin', 'teacher']);
    expect(await q({ deptid: 'D0003' })).toEqual([]);
    expect(await q({ realname: '王' })).toEqual(['teacher']);
    expect(await q({ sysusername: 'ADMIN' })).toEqual(['schooladmin']);
    // The whole number, through the blind index (the phone is stored sealed); a part finds nothing.
    expect(await q({ phonenumber: '139 8765 4321' })).toEqual(['schooladmin']);
    expect(await q({ phonenumber: '13987' })).toEqual([]);
    expect(await q({ enabled: 0 })).toEqual([]);
    const paged = await s.call('as.m.system.user.selectUserList', { page: 2, pageSize: 1 }, school);
    expect(paged.data).toMatchObject({ total: 2 });
    expect(paged.data.rows).toHaveLength(1);
  });

  it('keeps institutions apart: a provider sees both, the school never the hospital’s', async () => {
    expect(names((await s.call('as.m.system.user.selectUserList', {}, provider)).data.rows)).toEqual(['doctor', 'schooladmin', 'teacher']);
    expect(names((await s.call('as.m.system.user.selectUserList', { musercode: 'I0002' }, provider)).data.rows)).toEqual(['doctor']);
    expect((await s.call('as.m.system.user.selectUserList', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.user.selectUserList', { deptid: 'D0102' }, school)).errorCode).toBe(ErrorCode.notFound);
    const hospital = (await s.login('hospital')).token;
    expect(names((await s.call('as.m.system.user.selectUserList', {}, hospital)).data.rows)).toEqual(['doctor']);
    for (const [name, body] of [
      ['as.m.system.user.selectUserById', { userid: 'U0001' }],
      ['as.m.system.user.updateUser', { userid: 'U0001', realname: 'x' }],
      ['as.m.system.user.deleteUserById', { userid: 'U0001' }],
      ['as.m.system.user.resetPwd', { userid: 'U0001', pwd: md5Upper('x') }],
      ['as.m.system.user.enableUser', { userid: 'U0001', enabled: 0 }],
    ] as const) {
      expect((await s.call(name, body, hospital)).errorCode, name).toBe(ErrorCode.notFound);
    }
    expect((await user('teacher')).realname).toBe('王老师');
  });

  it('refuses every user action to a caller without user management', async () => {
    const teacher = (await s.login('teacher')).token;
    const calls: [string, Record<string, unknown>][] = [
      ['as.m.system.user.selectUserList', {}],
      ['as.m.system.user.selectUserById', { userid: 'U0002' }],
      ['as.m.system.user.insertUser', { sysusername: 'sneaky', pwd: md5Upper('x'), realname: 'x' }],
      ['as.m.system.user.updateUser', { userid: 'U0001', roleids: ['R0002'] }],
      ['as.m.system.user.deleteUserById', { userid: 'U0002' }],
      ['as.m.system.user.selectDeptTreeList', {}],
      ['as.m.system.user.resetPwd', { userid: 'U0002', pwd: md5Upper('x') }],
      ['as.m.system.user.enableUser', { userid: 'U0002', enabled: 0 }],
    ];
    for (const [name, body] of calls) expect((await s.call(name as never, body, teacher)).errorCode, name).toBe(ErrorCode.permissionDenied);
    expect(await rolesOfUser('U0001')).toEqual(['R0001']);
    expect(await user('sneaky')).toBeUndefined();
  });

  it('reads the edit form with the phone in full (audited) and the roles that may be given', async () => {
    const res = await s.call('as.m.system.user.selectUserById', { userid: 'U0001' }, school);
    expect(res.errorCode).toBe(0);
    expect(res.data.user).toMatchObject({ userid: 'U0001', phonenumber: '13812345678', roleids: ['R0001'] });
    expect(res.data.roles.map((r: { roleid: string }) => r.roleid)).toEqual(['R0002', 'R0001', 'R0003']);
    expect(res.data.roles.every((r: { grantable: boolean }) => r.grantable)).toBe(true);
    const audits = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'as.m.system.user.selectUserById'), eq(auditLog.result, 'ok')));
    expect(audits.map((a) => a.detail)).toContainEqual({ userid: 'U0001', target: 'I0001' });
    const blank = await s.call('as.m.system.user.selectUserById', {}, school);
    expect(blank.data.user).toBeNull();
    expect(blank.data.roles).toHaveLength(3);
    const forHospital = await s.call('as.m.system.user.selectUserById', { musercode: 'I0002' }, provider);
    expect(forHospital.data.roles.map((r: { roleid: string }) => r.roleid)).toEqual(['R0101']);
    expect((await s.call('as.m.system.user.selectUserById', { userid: 'U0101' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.user.selectUserById', { userid: 'U0001', musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.user.selectUserById', { userid: 'U0001', musercode: 'I0002' }, provider)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.user.selectUserById', { userid: 'U0001', musercode: 'I0001' }, provider)).errorCode).toBe(0);
  });

  it('lists the institutions the caller manages, its own first', async () => {
    const codes = (r: { data: { musercode: string }[] }) => r.data.map((i) => i.musercode);
    expect(codes(await s.call('as.m.system.muser.selectInstitutionList', {}, school))).toEqual(['I0001']);
    const mine = await s.call('as.m.system.muser.selectInstitutionList', {}, provider);
    expect(codes(mine)).toEqual(['P0001', 'I0001', 'I0002', 'I0003']);
    expect(mine.data[2]).toEqual({ musercode: 'I0002', insname: '仁和妇幼保健院', musertype: '002' });
    expect((await s.call('as.m.system.muser.selectInstitutionList', {}, (await s.login('teacher')).token)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.system.muser.selectInstitutionList', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.validation);
  });

  it('answers the enabled department tree of the caller’s institutions', async () => {
    const res = await s.call('as.m.system.user.selectDeptTreeList', {}, school);
    expect(res.data).toHaveLength(1);
    const root: DeptTreeNode = res.data[0];
    expect(root).toMatchObject({ deptid: 'D0001', deptname: '滨江第一中学' });
    expect(root.children.map((c) => c.deptid)).toEqual(['D0002', 'D0003']);
    expect(root.children[1].children.map((c) => c.deptid)).toEqual(['D0004']);
    expect((await s.call('as.m.system.user.selectDeptTreeList', {}, provider)).data.map((n: DeptTreeNode) => n.deptid)).toEqual(['D0001', 'D0101']);
    expect((await s.call('as.m.system.user.selectDeptTreeList', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('creates a staff user who can sign in, with roles and department of its institution', async () => {
    const res = await s.call('as.m.system.user.insertUser', { sysusername: 'counsellor2', pwd: md5Upper('Couns123'), realname: '孙老师', phonenumber: '13511112222', email: 'sun@example.com', sex: '01', deptid: 'D0003', roleids: ['R0001'] }, school);
    expect(res.errorCode).toBe(0);
    const row = await user('counsellor2');
    expect(row).toMatchObject({ userid: res.data.userid, musercode: 'I0001', realname: '孙老师', deptid: 'D0003', enabled: 1, sex: '01' });
    expect(row.pwdhash).toMatch(/^\$argon2id\$/);
    expect(await rolesOfUser(row.userid)).toEqual(['R0001']);
    const signedIn = await s.login('counsellor2', 'Couns123');
    expect(signedIn.permissions).toHaveLength(7);
    const forHospital = await s.call('as.m.system.user.insertUser', { sysusername: 'nurse1', pwd: md5Upper('Nurse123'), realname: '护士', deptid: 'D0102', roleids: ['R0101'], musercode: 'I0002' }, provider);
    expect(forHospital.errorCode).toBe(0);
    expect((await user('nurse1')).musercode).toBe('I0002');
  });

  it('keeps sign-in names unique across accounts and staff, whatever the case', async () => {
    const before = (await usersOf('I0001')).length;
    for (const taken of ['hospital', 'Teacher', 'DOCTOR']) {
      const res = await s.call('as.m.system.user.insertUser', { sysusername: taken, pwd: md5Upper('x'), realname: 'x' }, school);
      expect(res.errorCode, taken).toBe(ErrorCode.conflict);
      expect(res.errorMsg).toBe(`登录账号“${taken}”已被使用`);
    }
    expect((await usersOf('I0001')).length).toBe(before);
  });

  it('gives only roles and departments of the user’s own institution', async () => {
    const before = (await usersOf('I0001')).length;
    const base = { pwd: md5Upper('Abc12345'), realname: '新同事' };
    expect((await s.call('as.m.system.user.insertUser', { ...base, sysusername: 'x1', roleids: ['R0101'] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.user.insertUser', { ...base, sysusername: 'x2', deptid: 'D0102' }, school)).errorCode).toBe(ErrorCode.notFound);
    // The provider sees both institutions, but a school user cannot hold a hospital role.
    const mixed = await s.call('as.m.system.user.insertUser', { ...base, sysusername: 'x3', roleids: ['R0101'], musercode: 'I0001' }, provider);
    expect(mixed).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: '只能分配本机构的角色' });
    expect((await s.call('as.m.system.user.insertUser', { ...base, sysusername: 'x4', deptid: 'D0102', musercode: 'I0001' }, provider)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.system.user.updateUser', { userid: 'U0001', roleids: ['R0101'] }, provider)).errorCode).toBe(ErrorCode.validation);
    expect((await usersOf('I0001')).length).toBe(before);
    expect(await rolesOfUser('U0001')).toEqual(['R0001']);
  });

  it('rejects invalid input and changes nothing', async () => {
    const before = await usersOf('I0001');
    const ok = { sysusername: 'valid1', pwd: md5Upper('Abc12345'), realname: '有效' };
    const bad: Record<string, unknown>[] = [
      { ...ok, pwd: 'abc12345' },
      { ...ok, pwd: md5Upper('x').toLowerCase() },
      { ...ok, sysusername: 'a' },
      { ...ok, sysusername: 'has space' },
      { ...ok, sysusername: '中文名' },
      { ...ok, realname: '' },
      { ...ok, phonenumber: '12ab' },
      { ...ok, email: 'nope' },
      { ...ok, sex: '03' },
      { ...ok, roleids: Array.from({ length: 21 }, (_, i) => `R${i}`) },
      { ...ok, issuper: true },
    ];
    for (const body of bad) expect((await s.call('as.m.system.user.insertUser', body, school)).errorCode, JSON.stringify(body)).toBe(ErrorCode.validation);
    expect((await s.call('as.m.system.user.updateUser', { userid: 'U0001', sysusername: 'renamed' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.system.user.enableUser', { userid: 'U0001', enabled: 2 }, school)).errorCode).toBe(ErrorCode.validation);
    expect(await usersOf('I0001')).toEqual(before);
  });

  it('updates profile, department and roles', async () => {
    const res = await s.call('as.m.system.user.updateUser', { userid: 'U0001', realname: '王芳', phonenumber: '13800000000', deptid: 'D0003', roleids: ['R0001', 'R0003'] }, school);
    expect(res.errorCode).toBe(0);
    expect(await user('teacher')).toMatchObject({ realname: '王芳', phonenumber: '13800000000', deptid: 'D0003', sex: '02' });
    expect(await rolesOfUser('U0001')).toEqual(['R0001', 'R0003']);
    expect((await s.call('as.m.system.user.updateUser', { userid: 'U0001', deptid: null }, school)).errorCode).toBe(0);
    expect((await user('teacher')).deptid).toBeNull();
    expect((await s.call('as.m.system.user.updateUser', { userid: 'U0101', realname: 'x' }, school)).errorCode).toBe(ErrorCode.notFound);
    const [audit] = (await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'as.m.system.user.updateUser'))).filter((a) => a.result === 'ok');
    expect(JSON.stringify(audit.detail)).not.toContain('13800000000');
  });

  it('resets a password: the user’s sessions end and only the new password works', async () => {
    const t = (await s.login('teacher')).token;
    expect((await s.call('as.m.system.user.resetPwd', { userid: 'U0001', pwd: md5Upper('Reset999') }, school)).errorCode).toBe(0);
    expect(await ping(t)).toBe(ErrorCode.identityInvalid);
    expect((await s.call('as.m.user.login', { username: 'teacher', pwd: md5Upper('demo123') })).errorCode).toBe(ErrorCode.wrongCredentials);
    await s.login('teacher', 'Reset999');
    expect((await s.call('as.m.system.user.resetPwd', { userid: 'U0101', pwd: md5Upper('x') }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.user.resetPwd', { userid: 'U0001', pwd: 'short' }, school)).errorCode).toBe(ErrorCode.validation);
    const audits = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'as.m.system.user.resetPwd'));
    expect(JSON.stringify(audits)).not.toContain(md5Upper('Reset999'));
  });

  it('disables a user (sessions end, sign-in refused) and enables it again', async () => {
    const t = (await s.login('teacher', 'Reset999')).token;
    expect((await s.call('as.m.system.user.enableUser', { userid: 'U0001', enabled: 0 }, school)).errorCode).toBe(0);
    expect(await ping(t)).toBe(ErrorCode.identityInvalid);
    expect((await s.call('as.m.user.login', { username: 'teacher', pwd: md5Upper('Reset999') })).errorCode).toBe(ErrorCode.permissionDenied);
    expect(names((await s.call('as.m.system.user.selectUserList', { enabled: 0 }, school)).data.rows)).toEqual(['teacher']);
    expect((await s.call('as.m.system.user.enableUser', { userid: 'U0001', enabled: 1 }, school)).errorCode).toBe(0);
    await s.login('teacher', 'Reset999');
  });

  it('never lets a user disable or delete itself', async () => {
    const me = (await s.login('schooladmin')).token;
    expect((await s.call('as.m.system.user.enableUser', { userid: 'U0002', enabled: 0 }, me)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.system.user.deleteUserById', { userid: 'U0002' }, me)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.system.user.updateUser', { userid: 'U0002', enabled: 0 }, me)).errorCode).toBe(ErrorCode.permissionDenied);
    expect(await ping(me)).toBe(0);
  });

  it('bounds a staff user manager by its own codes', async () => {
    const role = await s.call('as.m.system.role.insertRole', { rolename: '用户管理员', rolekey: 'usermgr', codes: ['00048', '000313', '00018', '0000000022'] }, school);
    await s.call('as.m.system.user.insertUser', { sysusername: 'usermgr', pwd: md5Upper('Mgr12345'), realname: '吴老师', roleids: [role.data.roleid] }, school);
    const mgr = (await s.login('usermgr', 'Mgr12345')).token;
    const base = { pwd: md5Upper('Abc12345'), realname: '新人' };
    // The administrator role gives every school code: more than the manager holds.
    const admin = await s.call('as.m.system.user.insertUser', { ...base, sysusername: 'climber', roleids: ['R0002'] }, mgr);
    expect(admin.errorCode).toBe(ErrorCode.permissionDenied);
    expect(admin.errorMsg).toContain('学校管理员');
    expect(await user('climber')).toBeUndefined();
    expect((await s.call('as.m.system.user.updateUser', { userid: 'U0002', realname: 'x' }, mgr)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.system.user.resetPwd', { userid: 'U0002', pwd: md5Upper('taken') }, mgr)).errorCode).toBe(ErrorCode.permissionDenied);
    const options = await s.call('as.m.system.user.selectUserById', {}, mgr);
    expect(options.data.roles.find((r: { roleid: string }) => r.roleid === 'R0002').grantable).toBe(false);
    // A narrower role is fine.
    const narrow = await s.call('as.m.system.role.insertRole', { rolename: '只读', rolekey: 'reader', codes: ['00018'] }, school);
    expect((await s.call('as.m.system.user.insertUser', { ...base, sysusername: 'reader1', roleids: [narrow.data.roleid] }, mgr)).errorCode).toBe(0);
  });

  it('deletes a user with its role links and sessions, audited', async () => {
    const c = (await s.login('counsellor2', 'Couns123')).token;
    const row = await user('counsellor2');
    expect((await s.call('as.m.system.user.deleteUserById', { userid: row.userid }, school)).errorCode).toBe(0);
    expect(await user('counsellor2')).toBeUndefined();
    expect(await rolesOfUser(row.userid)).toEqual([]);
    expect(await ping(c)).toBe(ErrorCode.identityInvalid);
    expect((await s.call('as.m.user.login', { username: 'counsellor2', pwd: md5Upper('Couns123') })).errorCode).toBe(ErrorCode.wrongCredentials);
    expect((await s.call('as.m.system.user.deleteUserById', { userid: 'U0101' }, school)).errorCode).toBe(ErrorCode.notFound);
    const audits = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'as.m.system.user.deleteUserById'), eq(auditLog.result, 'ok')));
    expect(audits.map((a) => a.detail)).toContainEqual({ userid: row.userid, sysusername: 'counsellor2' });
  });
});
