import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, rowsReadSoFar, startTestServer, type TestServer } from '../../test/harness.js';
import { md5Upper } from './passwords.js';
import { muser } from '../accounts/tables.js';
import { auditLog } from '../audit/tables.js';
import { session } from './tables.js';
import { sysuser } from '../system/tables.js';

const MIN = 60_000;

describe.each(engines())('sign-in and sessions on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  const audits = async (action: string) => s.database.db.select().from(auditLog).where(eq(auditLog.action, action));

  it('signs in with the full user record', async () => {
    const res = await s.call('as.m.user.login', { username: '  school  ', pwd: md5Upper('demo123') });
    expect(res.errorCode).toBe(0);
    const u = res.data;
    expect(u.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(u).toMatchObject({ musercode: 'I0001', musertype: '001', username: 'school', insname: '滨江第一中学', userid: null, sysusername: '', provincecode: '330000', regionname: '浙江省杭州市滨江区', appdialogexempt: true, loginasmarker: '' });
    for (const key of ['citycode', 'districtcode', 'categorycode', 'categorylevel', 'categorycode0', 'categorycode5', 'realname', 'phonenumber', 'qrcodeurl']) expect(u).toHaveProperty(key);
    expect(u.permissions).toContainEqual({ component: '00018' });
    expect(u.permissions).not.toContainEqual({ component: '00020' });
    // The stored session holds the token's hash, never the token.
    const rows = await s.database.db.select().from(session).where(eq(session.musercode, 'I0001'));
    expect(rows.some((r) => r.tokenhash === u.token)).toBe(false);
    expect(rows[0].tokenhash).toMatch(/^[0-9a-f]{64}$/);
    expect((await audits('as.m.user.login')).some((a) => a.result === 'ok' && a.musercode === 'I0001')).toBe(true);
  });

  it('signs in a staff user with userid and sysusername, codes bounded by its role', async () => {
    const u = await s.login('teacher');
    expect(u.userid).toBe('U0001');
    expect(u.sysusername).toBe('teacher');
    expect(u.username).toBe('school');
    expect(u.permissions.map((p) => p.component).sort()).toEqual(['00008', '00013', '00018', '000000002', '0000000022', '001801', '00046'].sort());
    const admin = await s.login('schooladmin');
    expect(admin.permissions.length).toBeGreaterThan(u.permissions.length);
  });

  it('gives the super account every code and the admin role, and type 005 its extra code', async () => {
    const u = await s.login('admin');
    expect(u.roles).toContain('admin');
    expect(u.permissions.map((p) => p.component)).toEqual(expect.arrayContaining(['00051', '00023', '00029', '0000901']));
    const provider = await s.login('provider');
    expect(provider.permissions).toContainEqual({ component: '0000901' });
    expect(provider.navbarlinks.map((l) => l.key)).toEqual(['bigscreen']);
    expect(provider.appdialogexempt).toBe(false);
  });

  it('shows the website button only when the account has its own site, and opens that site', async () => {
    const admin = await s.login('admin');
    const set = (website: string) => s.call('as.m.user.updateMUser', { musercode: 'P0001', website }, admin.token);
    expect((await set('http://insecure.example.cn')).errorCode).toBe(ErrorCode.validation);
    expect((await set('javascript:alert(1)')).errorCode).toBe(ErrorCode.validation);
    expect((await s.login('provider')).navbarlinks.map((l) => l.key)).toEqual(['bigscreen']);
    expect((await set('https://anxin-xinli.cn/')).errorCode).toBe(0);
    expect((await s.login('provider')).navbarlinks).toEqual([
      { key: 'website', url: 'https://anxin-xinli.cn/' },
      { key: 'bigscreen', url: '/echarts/web' },
    ]);
    expect((await s.call('as.m.user.getMUser', { musercode: 'P0001' }, admin.token)).data).toMatchObject({ website: 'https://anxin-xinli.cn/' });
    // A staff user cannot change its institution's site; clearing it hides the button again.
    const teacher = await s.login('teacher');
    expect((await s.call('as.m.user.updateMUser', { musercode: 'I0001', website: 'https://x.cn' }, teacher.token)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await set('')).errorCode).toBe(0);
    expect((await s.login('provider')).navbarlinks.map((l) => l.key)).toEqual(['bigscreen']);
  });

  it('answers a wrong password and an unknown user the same way', async () => {
    const wrong = await s.call('as.m.user.login', { username: 'hospital', pwd: md5Upper('nope') });
    const unknown = await s.call('as.m.user.login', { username: 'nobody-here', pwd: md5Upper('nope') });
    expect(wrong.errorCode).toBe(ErrorCode.wrongCredentials);
    expect({ ...unknown, errorCode: unknown.errorCode }).toEqual(wrong);
    const fails = await audits('as.m.user.login');
    expect(fails.filter((a) => a.result === 'fail').length).toBeGreaterThanOrEqual(2);
  });

  it('stores only an argon2id hash of the MD5 string', async () => {
    const [row] = await s.database.db.select().from(muser).where(eq(muser.username, 'school'));
    expect(row.pwdhash).toMatch(/^\$argon2id\$v=19\$/);
    expect(row.pwdhash).not.toContain(md5Upper('demo123'));
  });

  it('locks a username after five failures in 15 minutes, and unlocks it 15 minutes later', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await s.call('as.m.user.login', { username: 'eldercare', pwd: md5Upper('bad') }, undefined, { 'x-test-ip': '10.0.0.9' })).errorCode).toBe(ErrorCode.wrongCredentials);
      s.clock.advance(MIN);
    }
    const fifth = await s.call('as.m.user.login', { username: 'eldercare', pwd: md5Upper('bad') }, undefined, { 'x-test-ip': '10.0.0.9' });
    expect(fifth.errorCode).toBe(ErrorCode.locked);
    expect(fifth.errorMsg).toContain('15');
    // Even the right password is refused while locked.
    const right = await s.call('as.m.user.login', { username: 'eldercare', pwd: md5Upper('demo123') }, undefined, { 'x-test-ip': '10.0.0.9' });
    expect(right.errorCode).toBe(ErrorCode.locked);
    expect((await audits('lockout')).length).toBe(1);
    s.clock.advance(14 * MIN);
    expect((await s.call('as.m.user.login', { username: 'eldercare', pwd: md5Upper('demo123') }, undefined, { 'x-test-ip': '10.0.0.9' })).errorCode).toBe(ErrorCode.locked);
    s.clock.advance(2 * MIN);
    expect((await s.call('as.m.user.login', { username: 'eldercare', pwd: md5Upper('demo123') }, undefined, { 'x-test-ip': '10.0.0.9' })).errorCode).toBe(0);
  });

  it('four failures spread over more than 15 minutes do not lock', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await s.call('as.m.user.login', { username: 'bureau', pwd: md5Upper('bad') }, undefined, { 'x-test-ip': '10.0.0.8' })).errorCode).toBe(ErrorCode.wrongCredentials);
      s.clock.advance(5 * MIN);
    }
  });

  it('settling a sign-in attempt reads that attempt alone, however many the table holds', async () => {
    const at = s.clock.now().toISOString();
    await s.database.db.execute(sql`insert into login_attempt (username, ip, at, ok) select 'nobody', '10.9.9.9', ${at}::timestamptz, false from generate_series(1, 2000)`);
    const read = await s.database.db.transaction(async (tx) => {
      const before = await rowsReadSoFar(tx, 'login_attempt');
      // The statement settleAttempt runs, on the newest attempt.
      await tx.execute(sql`update login_attempt set ok = true where id = (select last_value from login_attempt_id_seq)`);
      return (await rowsReadSoFar(tx, 'login_attempt')) - before;
    });
    expect(read).toBeLessThanOrEqual(1);
  });

  it('limits sign-in attempts per address', async () => {
    const ip = '10.0.0.77';
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await s.call('as.m.user.login', { username: `ghost${i}`, pwd: md5Upper('x') }, undefined, { 'x-test-ip': ip })).status;
    expect(last).toBe(429);
    const other = await s.call('as.m.user.login', { username: 'school', pwd: md5Upper('demo123') }, undefined, { 'x-test-ip': '10.0.0.78' });
    expect(other.errorCode).toBe(0);
    s.clock.advance(61_000);
  });

  it('expires a session after 30 idle minutes and after 12 hours in all', async () => {
    const u = await s.login('hospital');
    s.clock.advance(29 * MIN);
    expect((await s.call('as.m.system.ping', {}, u.token)).errorCode).toBe(0);
    s.clock.advance(29 * MIN);
    expect((await s.call('as.m.system.ping', {}, u.token)).errorCode).toBe(0);
    s.clock.advance(31 * MIN);
    expect((await s.call('as.m.system.ping', {}, u.token)).errorCode).toBe(ErrorCode.identityInvalid);

    const v = await s.login('hospital');
    for (let i = 0; i < 24; i++) {
      s.clock.advance(29 * MIN);
      expect((await s.call('as.m.system.ping', {}, v.token)).errorCode).toBe(0);
    }
    s.clock.advance(29 * MIN); // 12 h 29 min after sign-in, never idle
    expect((await s.call('as.m.system.ping', {}, v.token)).errorCode).toBe(ErrorCode.identityInvalid);
  });

  it('revokes the token on logout', async () => {
    const u = await s.login('hospital');
    expect((await s.call('as.m.user.logout', { token: u.token }, u.token)).errorCode).toBe(0);
    expect((await s.call('as.m.system.ping', {}, u.token)).errorCode).toBe(ErrorCode.identityInvalid);
    expect((await audits('as.m.user.logout')).length).toBeGreaterThan(0);
  });

  it('revokes every session of an account on a password change, and the new password works', async () => {
    const a = await s.login('warning');
    const b = await s.login('warning');
    const res = await s.call('as.m.user.updateMUser', { musercode: 'I0004', oldpwd: md5Upper('demo123'), pwd: md5Upper('n3wPass') }, a.token);
    expect(res.errorCode).toBe(0);
    expect((await s.call('as.m.system.ping', {}, a.token)).errorCode).toBe(ErrorCode.identityInvalid);
    expect((await s.call('as.m.system.ping', {}, b.token)).errorCode).toBe(ErrorCode.identityInvalid);
    expect((await s.call('as.m.user.login', { username: 'warning', pwd: md5Upper('demo123') })).errorCode).toBe(ErrorCode.wrongCredentials);
    await s.login('warning', 'n3wPass');
    expect((await audits('password-change')).length).toBe(1);
  });

  it('refuses a change of one’s own password with a wrong or missing current password, and changes nothing', async () => {
    const a = await s.login('hospital');
    const t = await s.login('teacher');
    const cases = [
      { token: a.token, musercode: a.musercode, oldpwd: md5Upper('not-it1') },
      { token: a.token, musercode: a.musercode },
      { token: t.token, musercode: 'I0001', oldpwd: md5Upper('wrong9') },
    ];
    for (const { token, ...body } of cases) {
      const res = await s.call('as.m.user.updateMUser', { ...body, pwd: md5Upper('Changed1') }, token, { 'accept-language': 'en' });
      expect(res.errorCode).toBe(ErrorCode.validation);
      expect(res.errorMsg).toMatch(/current password is not correct/);
    }
    // Nothing changed: both sessions live on and the old passwords still sign in.
    expect((await s.call('as.m.system.ping', {}, a.token)).errorCode).toBe(0);
    expect((await s.call('as.m.system.ping', {}, t.token)).errorCode).toBe(0);
    expect((await s.call('as.m.user.login', { username: 'hospital', pwd: md5Upper('Changed1') })).errorCode).toBe(ErrorCode.wrongCredentials);
    await s.login('hospital');
    await s.login('teacher');
  });

  it('a staff user changes its own password, not its institution’s', async () => {
    const t = await s.login('teacher');
    const school = await s.login('school');
    expect((await s.call('as.m.user.updateMUser', { musercode: 'I0001', oldpwd: md5Upper('demo123'), pwd: md5Upper('teach2') }, t.token)).errorCode).toBe(0);
    expect((await s.call('as.m.system.ping', {}, t.token)).errorCode).toBe(ErrorCode.identityInvalid);
    expect((await s.call('as.m.system.ping', {}, school.token)).errorCode).toBe(0);
    await s.login('teacher', 'teach2');
    await s.login('school');
  });

  it('refuses a disabled account and ends its sessions', async () => {
    const u = await s.login('schooladmin');
    await s.database.db.update(sysuser).set({ enabled: 0 }).where(eq(sysuser.sysusername, 'schooladmin'));
    expect((await s.call('as.m.system.ping', {}, u.token)).errorCode).toBe(ErrorCode.identityInvalid);
    const again = await s.call('as.m.user.login', { username: 'schooladmin', pwd: md5Upper('demo123') });
    expect(again.errorCode).toBe(ErrorCode.permissionDenied);
    expect(again.errorMsg).toContain('停用');
    await s.database.db.update(sysuser).set({ enabled: 1 }).where(eq(sysuser.sysusername, 'schooladmin'));
  });

  it('answers 110000 without a token or with a made-up one', async () => {
    expect((await s.call('as.m.system.ping', {})).errorCode).toBe(ErrorCode.identityInvalid);
    expect((await s.call('as.m.system.ping', {}, 'x'.repeat(43))).errorCode).toBe(ErrorCode.identityInvalid);
    const r = await s.call('as.m.system.ping', {}, 'x'.repeat(43), { 'accept-language': 'en-US' });
    expect(r.errorMsg).toBe('User identity invalid, please log in again');
  });

  it('lets a provider act as its institution (audited) but not as another provider’s', async () => {
    const p = await s.login('provider');
    const as = await s.call('as.m.user.loginAs', { musercode: 'I0002' }, p.token);
    expect(as.errorCode).toBe(0);
    expect(as.data).toMatchObject({ musercode: 'I0002', actingas: 'I0002', insname: '仁和妇幼保健院' });
    const [row] = (await audits('as.m.user.loginAs')).filter((a) => a.musercode === 'P0001');
    expect(row.detail).toEqual({ target: 'I0002' });
    const other = await s.call('as.m.user.loginAs', { musercode: 'I0004' }, p.token);
    expect(other.errorCode).toBe(ErrorCode.notFound);
    const school = await s.login('school');
    expect((await s.call('as.m.user.loginAs', { musercode: 'I0002' }, school.token)).errorCode).toBe(ErrorCode.permissionDenied);
  });

  // Last: it moves the clock a day on.
  it('the daily housekeeping removes the sign-in attempts and the sessions older than a day, and keeps the day’s', async () => {
    s.clock.advance(24 * 60 * MIN); // the next day's run is due
    const ago = (ms: number) => new Date(s.clock.now().getTime() - ms).toISOString();
    await s.database.db.execute(
      sql`insert into login_attempt (username, ip, at, ok) values ('old', '10.8.8.8', ${ago(25 * 60 * MIN)}::timestamptz, false), ('new', '10.8.8.8', ${ago(23 * 60 * MIN)}::timestamptz, false)`,
    );
    const count = async (q: ReturnType<typeof sql>) => Number(((await s.database.db.execute(q)) as unknown as { rows: { n: number }[] }).rows[0]!.n);
    const oldSessions = sql`select count(*) as n from session where createdat < ${ago(24 * 60 * MIN)}::timestamptz`;
    expect(await count(oldSessions)).toBeGreaterThan(0); // this file's earlier sign-ins
    const today = await s.login('school');
    await s.jobs.runDue();
    const left = await s.database.db.execute(sql`select username from login_attempt where ip = '10.8.8.8'`);
    expect((left as unknown as { rows: { username: string }[] }).rows).toEqual([{ username: 'new' }]);
    expect(await count(sql`select count(*) as n from login_attempt where at < ${ago(24 * 60 * MIN)}::timestamptz`)).toBe(0);
    expect(await count(oldSessions)).toBe(0);
    expect((await s.call('as.m.system.ping', {}, today.token)).errorCode).toBe(0);
  });
});
