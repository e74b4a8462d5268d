import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { testConfig } from '../../config.js';
import { isSealed, open } from '../../kit/crypt/index.js';
import { muser } from '../accounts/tables.js';
import { role, roleMenu, sysuser, sysuserRole } from '../system/tables.js';
import { md5Upper } from './passwords.js';
import { authenticate } from './sessions.js';

/**
 * Issue 8 §2: authorisation logic that the catalogue-wide sweep cannot see. Each block is a hole
 * that was open before: role keys that smuggle codes, staff users rewriting their institution,
 * login-as sessions outliving their actor, and lockout and rate limit raced by parallel sign-ins.
 */
describe.each(engines())('authorisation logic on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let provider: string;
  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    provider = (await s.login('provider')).token;
  });
  afterAll(() => s?.close());

  /** The codes the server resolves for a token on every request. */
  const codesOf = async (token: string) => [...(await authenticate(s.database.db, testConfig(), s.clock.now(), token)).codes].sort();

  /** A staff user of an institution holding exactly one role, created straight in the database. */
  async function staffWithRole(musercode: string, name: string, rolekey: string, codes: string[]) {
    const roleid = `R${name}`;
    const userid = `U${name}`;
    await s.database.db.insert(role).values({ roleid, musercode, rolename: name, rolekey });
    if (codes.length) await s.database.db.insert(roleMenu).values(codes.map((code) => ({ roleid, code })));
    const pwdhash = (await s.database.db.select({ h: sysuser.pwdhash }).from(sysuser).where(eq(sysuser.sysusername, 'teacher')))[0].h;
    await s.database.db.insert(sysuser).values({ userid, musercode, sysusername: name, pwdhash });
    await s.database.db.insert(sysuserRole).values({ userid, roleid });
    return { roleid, userid };
  }

  describe('role keys never carry codes', () => {
    it('refuses a role key with ":" (validation), and stores nothing', async () => {
      for (const rolekey of ['k:000313', 'admin:x']) {
        const res = await s.call('as.m.system.role.insertRole', { rolename: `r ${rolekey}`, rolekey, codes: [] }, school);
        expect(res.errorCode, rolekey).toBe(ErrorCode.validation);
        expect(await s.database.db.select().from(role).where(eq(role.rolekey, rolekey))).toEqual([]);
      }
    });

    it('a stored key such as k:000313 or admin:x gives its holder no code at all', async () => {
      const held = (await s.login('school')).permissions.map((p) => p.component);
      expect(held).toContain('000313');
      for (const [name, rolekey] of [
        ['smuggle1', 'k:000313'],
        ['smuggle2', 'admin:x'],
        ['smuggle3', 'x:admin'],
        ['smuggle4', 'admin:'],
      ]) {
        await staffWithRole('I0001', name, rolekey, []);
        const signedIn = await s.login(name, 'demo123');
        expect(signedIn.permissions, rolekey).toEqual([]);
        expect(await codesOf(signedIn.token), rolekey).toEqual([]);
        expect((await s.call('as.m.system.user.selectUserList', {}, signedIn.token)).errorCode, rolekey).toBe(ErrorCode.permissionDenied);
      }
    });

    it('the role check (what a role gives) and the resolver (what its holder gets) agree', async () => {
      // A staff user with role management but not user management may not give a role that
      // grants user management; with key admin:x the check once saw "no codes" and let it pass.
      const { userid: managerId } = await staffWithRole('I0001', 'rolemgr', 'rolemgr', ['000311', '000313']);
      void managerId;
      const manager = await s.login('rolemgr', 'demo123');
      expect(await codesOf(manager.token)).toEqual(['000311', '000313']);
      const { roleid } = await staffWithRole('I0001', 'smuggle5', 'admin:y', []);
      const all = (await s.login('school')).permissions.map((p) => p.component);
      expect(all.length).toBeGreaterThan(2);
      const res = await s.call('as.m.system.user.updateUser', { userid: 'Urolemgr', roleids: ['Rrolemgr', roleid] }, manager.token);
      expect(res.errorCode).toBe(0);
      expect(await codesOf((await s.login('rolemgr', 'demo123')).token)).toEqual(['000311', '000313']);
    });
  });

  describe('staff users change only their own profile', () => {
    it('refuses a counsellor renaming its school or changing the school’s phone, and changes nothing', async () => {
      const teacher = (await s.login('teacher')).token;
      const [before] = await s.database.db.select().from(muser).where(eq(muser.musercode, 'I0001'));
      for (const body of [{ insname: '被改名的学校' }, { insname: '被改名的学校', phonenumber: '110' }]) {
        const res = await s.call('as.m.user.updateMUser', { musercode: 'I0001', ...body }, teacher);
        expect(res.errorCode).toBe(ErrorCode.permissionDenied);
        expect(res.errorMsg).toContain('机构');
      }
      const [after] = await s.database.db.select().from(muser).where(eq(muser.musercode, 'I0001'));
      expect(after).toEqual(before);
    });

    it('a staff user’s name and phone change its own user, never the institution', async () => {
      const teacher = (await s.login('teacher')).token;
      const [before] = await s.database.db.select().from(muser).where(eq(muser.musercode, 'I0001'));
      const res = await s.call('as.m.user.updateMUser', { musercode: 'I0001', realname: '王老师二', phonenumber: '13800000000' }, teacher);
      expect(res.errorCode).toBe(0);
      const [after] = await s.database.db.select().from(muser).where(eq(muser.musercode, 'I0001'));
      expect(after).toEqual(before);
      const [u] = await s.database.db.select().from(sysuser).where(eq(sysuser.sysusername, 'teacher'));
      // The phone is stored sealed (issue 30 §3); opened, it is the new one.
      expect(u).toMatchObject({ realname: '王老师二' });
      expect(isSealed(u!.phonenumber!)).toBe(true);
      expect(open(u!.phonenumber)).toBe('13800000000');
    });

    it('the institution account still changes its own profile', async () => {
      const res = await s.call('as.m.user.updateMUser', { musercode: 'I0001', phonenumber: '0571-1234567' }, school);
      expect(res.errorCode).toBe(0);
      const [after] = await s.database.db.select().from(muser).where(eq(muser.musercode, 'I0001'));
      // Sealed at rest, as a staff user's phone is.
      expect(isSealed(after!.phonenumber)).toBe(true);
      expect(open(after!.phonenumber)).toBe('0571-1234567');
    });
  });

  describe('login-as sessions live and hold only what their actor does', () => {
    let pstaff: { userid: string };
    beforeAll(async () => {
      // A staff user of the provider that may act as its institutions and read users, nothing more.
      pstaff = await staffWithRole('P0001', 'pstaff', 'agent', ['00021', '000313']);
    });

    it('bounds a login-as session by the codes of the staff user who opened it', async () => {
      const staff = await s.login('pstaff', 'demo123');
      const as = await s.call('as.m.user.loginAs', { musercode: 'I0001' }, staff.token);
      expect(as.errorCode).toBe(0);
      expect(await codesOf(as.data.token)).toEqual(['000313']);
      expect(as.data.permissions.map((p: { component: string }) => p.component)).toEqual(['000313']);
      expect((await s.call('as.m.system.user.selectUserList', {}, as.data.token)).errorCode).toBe(0);
      expect((await s.call('as.m.system.role.selectRoleList', {}, as.data.token)).errorCode).toBe(ErrorCode.permissionDenied);
      // The provider account itself holds more, and so does its login-as session.
      const byProvider = await s.call('as.m.user.loginAs', { musercode: 'I0001' }, provider);
      expect((await codesOf(byProvider.data.token)).length).toBeGreaterThan(1);
    });

    it('ends the session when its staff user is disabled, and when it is deleted', async () => {
      let staff = await s.login('pstaff', 'demo123');
      let as = (await s.call('as.m.user.loginAs', { musercode: 'I0001' }, staff.token)).data.token as string;
      expect((await s.call('as.m.system.ping', {}, as)).errorCode).toBe(0);
      expect((await s.call('as.m.system.user.enableUser', { userid: pstaff.userid, enabled: 0 }, provider)).errorCode).toBe(0);
      expect((await s.call('as.m.system.ping', {}, as)).errorCode).toBe(ErrorCode.identityInvalid);
      // Re-enabling does not bring the ended session back.
      expect((await s.call('as.m.system.user.enableUser', { userid: pstaff.userid, enabled: 1 }, provider)).errorCode).toBe(0);
      expect((await s.call('as.m.system.ping', {}, as)).errorCode).toBe(ErrorCode.identityInvalid);

      // Disabled behind the application's back: the check on every request still ends it.
      staff = await s.login('pstaff', 'demo123');
      as = (await s.call('as.m.user.loginAs', { musercode: 'I0001' }, staff.token)).data.token;
      await s.database.db.update(sysuser).set({ enabled: 0 }).where(eq(sysuser.userid, pstaff.userid));
      expect((await s.call('as.m.system.ping', {}, as)).errorCode).toBe(ErrorCode.identityInvalid);
      await s.database.db.update(sysuser).set({ enabled: 1 }).where(eq(sysuser.userid, pstaff.userid));

      staff = await s.login('pstaff', 'demo123');
      as = (await s.call('as.m.user.loginAs', { musercode: 'I0001' }, staff.token)).data.token;
      await s.database.db.delete(sysuserRole).where(eq(sysuserRole.userid, pstaff.userid));
      expect((await s.call('as.m.system.user.deleteUserById', { userid: pstaff.userid }, provider)).errorCode).toBe(0);
      expect((await s.call('as.m.system.ping', {}, as)).errorCode).toBe(ErrorCode.identityInvalid);
    });

    it('ends a provider’s login-as session when the provider is disabled', async () => {
      const p = (await s.login('provider')).token;
      const as = (await s.call('as.m.user.loginAs', { musercode: 'I0002' }, p)).data.token as string;
      expect((await s.call('as.m.system.ping', {}, as)).errorCode).toBe(0);
      await s.database.db.update(muser).set({ enabled: 0 }).where(eq(muser.musercode, 'P0001'));
      try {
        expect((await s.call('as.m.system.ping', {}, as)).errorCode).toBe(ErrorCode.identityInvalid);
      } finally {
        await s.database.db.update(muser).set({ enabled: 1 }).where(eq(muser.musercode, 'P0001'));
      }
    });
  });
});

describe.each(engines())('parallel sign-ins on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  it('99 wrong passwords then the right one, all at once: no token', async () => {
    const wrong = md5Upper('wrong-password');
    const bodies = [...Array.from({ length: 99 }, () => wrong), md5Upper('demo123')];
    // Each from its own address, so only the per-username lockout can stop them.
    const answers = await Promise.all(bodies.map((pwd, i) => s.call('as.m.user.login', { username: 'hospital', pwd }, undefined, { 'x-test-ip': `10.0.${i >> 8}.${i & 255}` })));
    expect(answers.filter((a) => a.errorCode === 0)).toEqual([]);
    expect(answers.at(-1)!.errorCode).toBe(ErrorCode.locked);
    // No more than the lockout's five attempts ever got as far as the password.
    expect(answers.filter((a) => a.errorCode === ErrorCode.wrongCredentials).length).toBeLessThanOrEqual(5);
  });

  it('the per-address limit holds under parallel attempts', async () => {
    const limit = testConfig().loginPerMinutePerAddress;
    const answers = await Promise.all(
      Array.from({ length: limit + 10 }, (_, i) => s.call('as.m.user.login', { username: `nobody${i}`, pwd: md5Upper('x') }, undefined, { 'x-test-ip': '10.9.9.9' })),
    );
    expect(answers.filter((a) => a.status !== 429).length).toBe(limit);
  });
});

void and;
