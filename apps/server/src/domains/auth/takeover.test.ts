import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, SET_PASSWORD_CODE } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { testConfig } from '../../config.js';
import { muser } from '../accounts/tables.js';
import { role, roleMenu, sysuser, sysuserRole } from '../system/tables.js';
import { md5Upper } from './passwords.js';
import { authenticate } from './sessions.js';

/**
 * Issue 27 item 2: no action lets a caller obtain a code it does not hold, directly or by taking
 * over an account. The probe: a provider's staff user whose role holds only 00020 and 00021 set an
 * institution's password with updateMUser and signed in as it with all of its codes. Setting
 * another account's password needs SET_PASSWORD_CODE, and even then only for an account (or staff
 * user) whose codes the caller holds all of; login-as sessions are bounded by their actor's codes.
 */
describe.each(engines())('taking over accounts on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  const db = () => s.database.db;
  const codesOf = async (token: string) => [...(await authenticate(db(), testConfig(), s.clock.now(), token)).codes].sort();
  const pwdOf = async (musercode: string) => (await db().select({ h: muser.pwdhash }).from(muser).where(eq(muser.musercode, musercode)))[0]!.h;
  const userPwd = async (userid: string) => (await db().select({ h: sysuser.pwdhash, e: sysuser.enabled }).from(sysuser).where(eq(sysuser.userid, userid)))[0]!;
  const signIn = (username: string, password: string) => s.call('as.m.user.login', { username, pwd: md5Upper(password) });

  /** A staff user of an institution or provider holding exactly one role, created straight in the database. */
  async function staffWith(musercode: string, name: string, codes: string[]) {
    const roleid = `R${name}`;
    const userid = `U${name}`;
    await db().insert(role).values({ roleid, musercode, rolename: name, rolekey: name });
    if (codes.length) await db().insert(roleMenu).values(codes.map((code) => ({ roleid, code })));
    const [t] = await db().select({ h: sysuser.pwdhash }).from(sysuser).where(eq(sysuser.sysusername, 'teacher'));
    await db().insert(sysuser).values({ userid, musercode, sysusername: name, pwdhash: t!.h });
    await db().insert(sysuserRole).values({ userid, roleid });
    return { userid, roleid, token: (await s.login(name)).token };
  }

  it('the probe: a provider staff user with 00020 and 00021 cannot set an institution’s password, and signs in as nothing', async () => {
    const agent = await staffWith('P0001', 'probe1', ['00020', '00021']);
    const before = await pwdOf('I0001');
    const res = await s.call('as.m.user.updateMUser', { musercode: 'I0001', pwd: md5Upper('Taken123') }, agent.token);
    expect(res.errorCode).toBe(ErrorCode.permissionDenied);
    expect(await pwdOf('I0001')).toBe(before);
    expect((await signIn('school', 'Taken123')).errorCode).not.toBe(0);
    expect((await signIn('school', 'demo123')).errorCode).toBe(0);
  });

  it('with the password code, still not an account that holds codes the caller does not', async () => {
    const agent = await staffWith('P0001', 'probe2', ['00020', '00021', SET_PASSWORD_CODE]);
    const before = await pwdOf('I0001');
    const res = await s.call('as.m.user.updateMUser', { musercode: 'I0001', pwd: md5Upper('Taken123') }, agent.token);
    expect(res.errorCode).toBe(ErrorCode.permissionDenied);
    expect(res.errorMsg).toMatch(/权限/);
    expect(await pwdOf('I0001')).toBe(before);
    // Its profile (not a way in) is still institution management.
    expect((await s.call('as.m.user.updateMUser', { musercode: 'I0001', phonenumber: '0571-7654321' }, agent.token)).errorCode).toBe(0);
  });

  it('a caller holding every code of the account and the password code may set it (the owner provider, a full staff user)', async () => {
    const school = await s.login('school');
    const full = await staffWith('P0001', 'probe3', [...new Set([...school.permissions.map((p) => p.component), '00021', SET_PASSWORD_CODE])]);
    expect((await s.call('as.m.user.updateMUser', { musercode: 'I0001', pwd: md5Upper('Owner123') }, full.token)).errorCode).toBe(0);
    expect((await signIn('school', 'Owner123')).errorCode).toBe(0);
    const provider = (await s.login('provider')).token;
    expect((await s.call('as.m.user.updateMUser', { musercode: 'I0001', pwd: md5Upper('demo123') }, provider)).errorCode).toBe(0);
    expect((await signIn('school', 'demo123')).errorCode).toBe(0);
  });

  it('login-as sessions are bounded by their actor: no resetPwd, enableUser, updateUser or updateRole on what the actor does not hold', async () => {
    const agent = await staffWith('P0001', 'probe4', ['00021', '000311', '000313', SET_PASSWORD_CODE]);
    const as = await s.call('as.m.user.loginAs', { musercode: 'I0001' }, agent.token);
    expect(as.errorCode).toBe(0);
    const token = as.data.token as string;
    expect(await codesOf(token)).toEqual(['000311', '000313', SET_PASSWORD_CODE].sort());
    const admin = await userPwd('U0002'); // schooladmin: the admin role, every code of the school
    for (const [name, body] of [
      ['as.m.system.user.resetPwd', { userid: 'U0002', pwd: md5Upper('Taken123') }],
      ['as.m.system.user.enableUser', { userid: 'U0002', enabled: 0 }],
      ['as.m.system.user.updateUser', { userid: 'U0002', realname: 'x' }],
      ['as.m.system.user.deleteUserById', { userid: 'U0002' }],
      ['as.m.system.user.resetPwd', { userid: 'U0001', pwd: md5Upper('Taken123') }],
      ['as.m.system.role.updateRole', { roleid: 'R0001', enabled: 0 }],
      ['as.m.system.role.updateMuserMenu', { roleid: 'R0001', codes: ['00018'] }],
    ] as const) {
      expect((await s.call(name, body, token)).errorCode, name).toBe(ErrorCode.permissionDenied);
    }
    expect(await userPwd('U0002')).toEqual(admin);
    expect((await signIn('schooladmin', 'Taken123')).errorCode).not.toBe(0);
    expect((await signIn('teacher', 'Taken123')).errorCode).not.toBe(0);
    // What the actor does hold it may still manage: a user whose codes it holds all of.
    const small = await staffWith('I0001', 'probe4small', ['000313']);
    expect((await s.call('as.m.system.user.resetPwd', { userid: small.userid, pwd: md5Upper('Small123') }, token)).errorCode).toBe(0);
    expect((await signIn('probe4small', 'Small123')).errorCode).toBe(0);
  });

  it('a login-as session cannot set the password of the account it acts as beyond its actor', async () => {
    // An institution that itself holds institution management, so the session holds 00021 too.
    const agent = await staffWith('P0001', 'probe5', ['00021', SET_PASSWORD_CODE]);
    const provider = (await s.login('provider')).token;
    expect((await s.call('as.m.permissions.updateUserPermissions', { musercode: 'I0003', permissions: ['00010', '00021', SET_PASSWORD_CODE] }, provider)).errorCode).toBe(0);
    const as = await s.call('as.m.user.loginAs', { musercode: 'I0003' }, agent.token);
    expect(as.errorCode).toBe(0);
    const before = await pwdOf('I0003');
    const res = await s.call('as.m.user.updateMUser', { musercode: 'I0003', pwd: md5Upper('Taken123') }, as.data.token);
    expect(res.errorCode).toBe(ErrorCode.permissionDenied);
    expect(await pwdOf('I0003')).toBe(before);
  });

  it('setting another user’s password is its own code: the school’s admin role and the counsellor do not get it, the school account does', async () => {
    const codes = async (username: string) => (await s.login(username)).permissions.map((p) => p.component);
    expect(await codes('school')).toContain(SET_PASSWORD_CODE);
    expect(await codes('provider')).toContain(SET_PASSWORD_CODE);
    expect(await codes('schooladmin')).not.toContain(SET_PASSWORD_CODE);
    expect(await codes('teacher')).not.toContain(SET_PASSWORD_CODE);
    const schooladmin = (await s.login('schooladmin')).token;
    const before = await userPwd('U0001');
    expect((await s.call('as.m.system.user.resetPwd', { userid: 'U0001', pwd: md5Upper('Taken123') }, schooladmin)).errorCode).toBe(ErrorCode.permissionDenied);
    expect(await userPwd('U0001')).toEqual(before);
    const school = (await s.login('school')).token;
    expect((await s.call('as.m.system.user.resetPwd', { userid: 'U0001', pwd: md5Upper('demo123') }, school)).errorCode).toBe(0);
  });

  it('no role, role holder or account gets a code from a caller that does not hold it, login-as included', async () => {
    const agent = await staffWith('P0001', 'probe6', ['00021', '000311', '000313', '00023']);
    const as = (await s.call('as.m.user.loginAs', { musercode: 'I0001' }, agent.token)).data.token as string;
    for (const [i, token] of [agent.token, as].entries()) {
      const target = token === as ? {} : { musercode: 'I0001' };
      expect((await s.call('as.m.system.role.insertRole', { ...target, rolename: `probe6 ${i}`, rolekey: `probe6k${i}`, codes: ['00046'] }, token)).errorCode).toBe(ErrorCode.permissionDenied);
      expect((await s.call('as.m.system.user.updateUser', { userid: 'U0001', roleids: ['R0001', 'R0002'] }, token)).errorCode).toBe(ErrorCode.permissionDenied);
      expect((await s.call('as.m.system.user.insertUser', { ...target, sysusername: `probe6u${i}`, realname: 'x', pwd: md5Upper('New12345'), roleids: ['R0002'] }, token)).errorCode).toBe(ErrorCode.permissionDenied);
      expect((await s.call('as.m.permissions.updateUserPermissions', { musercode: 'I0001', permissions: ['00046'] }, token)).errorCode).not.toBe(0);
    }
    expect((await s.login('teacher')).permissions.map((p) => p.component)).not.toContain('000313');
  });
});
