import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SECOND_FACTOR } from './demo.js';
import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { auditLog } from '../audit/tables.js';
import { md5Upper } from './passwords.js';
import { currentCode } from './second-factor.js';
import { recoveryCode } from './tables.js';

const STEP = 30_000;

/**
 * Issue 30 §1: TOTP second factor. Codes are computed from the secret the enrolment answers, at the
 * test clock's time; the clock moves a step between codes, as a person's would.
 */
describe.each(engines())('second factor on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  const db = () => s.database.db;
  const secrets = new Map<string, string>();
  const password = (username: string, pw = 'demo123') => s.call('as.m.user.login', { username, pwd: md5Upper(pw) });
  const code = (secret: string) => currentCode(secret, s.clock.now());
  const next = () => s.clock.advance(STEP);
  const audits = async (action: string) => db().select().from(auditLog).where(eq(auditLog.action, action));

  /** Enrols a signed-in person through the account menu's actions; answers the secret and recovery codes. */
  async function enrol(username: string) {
    const { token } = await s.login(username);
    const begin = await s.call('as.m.secondFactor.begin', {}, token);
    expect(begin.errorCode).toBe(0);
    const secret = new URL(begin.data.uri).searchParams.get('secret')!;
    expect(secret).toBe(begin.data.secret);
    expect(begin.data.qr).toMatch(/^data:image\/png;base64,/);
    const confirm = await s.call('as.m.secondFactor.confirm', { code: code(secret) }, token);
    expect(confirm.errorCode).toBe(0);
    secrets.set(username, secret);
    next();
    return { secret, recovery: confirm.data.recoverycodes as string[], token };
  }

  /** Signs in an enrolled person with password and code; answers the token. */
  async function withCode(username: string): Promise<string> {
    next();
    const ch = await challengeOf(username);
    const res = await s.call('as.m.user.loginSecondFactor', { challenge: ch.challenge, code: code(secrets.get(username)!) });
    expect(res.errorCode).toBe(0);
    return res.data.token;
  }

  async function challengeOf(username: string) {
    const res = await password(username);
    expect(res.errorCode).toBe(0);
    return res.data as { secondfactor: string; challenge: string; expiresat: string; token?: string };
  }

  it('the account and staff lists show who has a confirmed second factor; an enrolment waiting for its first code does not count', async () => {
    const { token: admin } = await s.login('admin');
    const accounts = (await s.call('as.m.user.getMUserPageList', { page: 1, pageSize: 100 }, admin)).data.rows as {
      musercode: string;
      secondfactor: boolean;
    }[];
    expect(accounts.find((a) => a.musercode === DEMO_SECOND_FACTOR.musercode)?.secondfactor).toBe(true);
    expect(accounts.find((a) => a.musercode === 'I0001')?.secondfactor).toBe(false);
    expect((await s.call('as.m.user.getMUser', { musercode: DEMO_SECOND_FACTOR.musercode }, admin)).data.secondfactor).toBe(true);

    const { token: school } = await s.login('school');
    const staff = async () =>
      (
        (await s.call('as.m.system.user.selectUserList', { page: 1, pageSize: 100 }, school)).data.rows as {
          userid: string;
          secondfactor: boolean;
        }[]
      ).find((u) => u.userid === 'U0001')?.secondfactor;
    expect(await staff()).toBe(false);
    const { token: teacher } = await s.login('teacher');
    const begin = await s.call('as.m.secondFactor.begin', {}, teacher);
    expect(await staff()).toBe(false);
    expect((await s.call('as.m.secondFactor.confirm', { code: code(begin.data.secret) }, teacher)).errorCode).toBe(0);
    next();
    expect(await staff()).toBe(true);
    expect((await s.call('as.m.system.user.selectUserById', { userid: 'U0001' }, school)).data.user.secondfactor).toBe(true);
    // Back as it was for the tests below.
    expect((await s.call('as.m.system.user.resetSecondFactor', { userid: 'U0001' }, school)).errorCode).toBe(0);
    expect(await staff()).toBe(false);
  });

  it('the account and staff lists filter by second factor: on (1) or off (0), the total counted the same way', async () => {
    const { token: admin } = await s.login('admin');
    const accounts = async (secondfactor: 0 | 1) => {
      const res = await s.call('as.m.user.getMUserPageList', { page: 1, pageSize: 100, secondfactor }, admin);
      expect(res.errorCode).toBe(0);
      const rows = res.data.rows as { musercode: string; secondfactor: boolean }[];
      expect(res.data.total).toBe(rows.length);
      expect(rows.every((r) => r.secondfactor === (secondfactor === 1))).toBe(true);
      return rows.map((r) => r.musercode);
    };
    const all = (await s.call('as.m.user.getMUserPageList', { page: 1, pageSize: 100 }, admin)).data.total as number;
    const [on, off] = [await accounts(1), await accounts(0)];
    expect(on).toContain(DEMO_SECOND_FACTOR.musercode);
    expect(off).toContain('I0001');
    expect(on.length + off.length).toBe(all);

    const { token: school } = await s.login('school');
    const staff = async (secondfactor?: 0 | 1) => {
      const res = await s.call('as.m.system.user.selectUserList', { page: 1, pageSize: 100, secondfactor }, school);
      expect(res.errorCode).toBe(0);
      return (res.data.rows as { userid: string; secondfactor: boolean }[]).map((r) => `${r.userid}:${r.secondfactor}`);
    };
    const { token: teacher } = await s.login('teacher');
    const begin = await s.call('as.m.secondFactor.begin', {}, teacher);
    expect(await staff(1)).toEqual([]); // waiting for its first code: not on yet
    expect(await staff(0)).toContain('U0001:false');
    expect((await s.call('as.m.secondFactor.confirm', { code: code(begin.data.secret) }, teacher)).errorCode).toBe(0);
    next();
    expect(await staff(1)).toEqual(['U0001:true']);
    expect(await staff(0)).not.toContain('U0001:false');
    expect((await staff(0)).length + 1).toBe((await staff()).length);
    expect((await s.call('as.m.system.user.resetSecondFactor', { userid: 'U0001' }, school)).errorCode).toBe(0);
    expect(await staff(1)).toEqual([]);
  });

  it('enrols with a QR code and a first code; ten recovery codes, stored hashed; the secret never in the audit log', async () => {
    const { secret, recovery } = await enrol('hospital');
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    const rows = await db().select().from(recoveryCode).where(eq(recoveryCode.subject, 'm:I0002'));
    expect(rows).toHaveLength(10);
    for (const r of rows) {
      expect(r.codehash).toMatch(/^\$argon2id\$/);
      expect(recovery.some((c) => r.codehash.includes(c))).toBe(false);
    }
    // A confirmed factor is not restarted behind the person's back: turn it off first.
    const again = await s.call('as.m.secondFactor.begin', {}, await withCode('hospital'));
    expect(again.errorCode).toBe(ErrorCode.validation);
    next();
    expect((await challengeOf('hospital')).secondfactor).toBe('code');
    const log = JSON.stringify(await db().select().from(auditLog));
    expect(log).not.toContain(secret);
    expect(log).not.toContain(recovery[0]);
  });

  it('a wrong first code does not enrol', async () => {
    const { token } = await s.login('eldercare');
    const begin = await s.call('as.m.secondFactor.begin', {}, token);
    const wrong = String((Number(code(begin.data.secret)) + 1) % 1_000_000).padStart(6, '0');
    expect((await s.call('as.m.secondFactor.confirm', { code: wrong }, token)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.secondFactor.getStatus', {}, token)).data).toMatchObject({ enrolled: false });
    // Without a second factor the sign-in stays one step (SPEC §7).
    expect((await password('eldercare')).data.token).toBeTruthy();
  });

  it('signs in in two steps: the password answers a challenge (no token), the code the user record', async () => {
    const { secret } = await enrol('warning');
    const first = await challengeOf('warning');
    expect(first).toMatchObject({ secondfactor: 'code' });
    expect(first.token).toBeUndefined();
    // The challenge is not a token.
    expect((await s.call('as.m.system.ping', {}, first.challenge)).errorCode).toBe(ErrorCode.identityInvalid);
    const done = await s.call('as.m.user.loginSecondFactor', { challenge: first.challenge, code: code(secret) });
    expect(done.errorCode).toBe(0);
    expect(done.data).toMatchObject({ username: 'warning', userid: null });
    expect((await s.call('as.m.system.ping', {}, done.data.token)).errorCode).toBe(0);
    // The challenge is used up.
    next();
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: first.challenge, code: code(secret) })).errorCode).toBe(
      ErrorCode.validation,
    );
  });

  it('refuses a replayed code, also when two calls bring it at once', async () => {
    const { secret } = await enrol('bureau');
    const c = code(secret);
    const [a, b] = [await challengeOf('bureau'), await challengeOf('bureau')];
    const both = await Promise.all([
      s.call('as.m.user.loginSecondFactor', { challenge: a.challenge, code: c }),
      s.call('as.m.user.loginSecondFactor', { challenge: b.challenge, code: c }),
    ]);
    expect(both.map((r) => r.errorCode).sort()).toEqual([0, ErrorCode.wrongCredentials].sort());
    const again = await challengeOf('bureau');
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: again.challenge, code: c })).errorCode).toBe(
      ErrorCode.wrongCredentials,
    );
    next();
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: again.challenge, code: code(secret) })).errorCode).toBe(0);
  });

  it('wrong codes count towards the lockout: then even the right code is refused until the lock ends', async () => {
    const { secret } = await enrol('provider2');
    const ch = await challengeOf('provider2');
    const wrong = () => String((Number(code(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 4; i++)
      expect((await s.call('as.m.user.loginSecondFactor', { challenge: ch.challenge, code: wrong() })).errorCode).toBe(
        ErrorCode.wrongCredentials,
      );
    // A right password in between does not restart the count.
    const ch2 = await challengeOf('provider2');
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: ch2.challenge, code: wrong() })).errorCode).toBe(ErrorCode.locked);
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: ch2.challenge, code: code(secret) })).errorCode).toBe(
      ErrorCode.locked,
    );
    expect((await password('provider2')).errorCode).toBe(ErrorCode.locked);
    expect((await audits('lockout')).some((a) => (a.detail as { username?: string }).username === 'provider2')).toBe(true);
    s.clock.advance(16 * 60_000);
    const ch3 = await challengeOf('provider2');
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: ch3.challenge, code: code(secret) })).errorCode).toBe(0);
  });

  it('a recovery code signs in once', async () => {
    const { recovery } = await enrol('doctor');
    const ch = await challengeOf('doctor');
    const res = await s.call('as.m.user.loginSecondFactor', { challenge: ch.challenge, recoverycode: recovery[3]!.toLowerCase() });
    expect(res.errorCode).toBe(0);
    expect(res.data).toMatchObject({ userid: 'U0101' });
    const ch2 = await challengeOf('doctor');
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: ch2.challenge, recoverycode: recovery[3] })).errorCode).toBe(
      ErrorCode.wrongCredentials,
    );
    expect((await s.call('as.m.secondFactor.getStatus', {}, res.data.token)).data).toMatchObject({ enrolled: true, recoveryleft: 9 });
  });

  it('a challenge expires, and is bound to the account whose password was right', async () => {
    const { secret } = await enrol('schooladmin');
    const ch = await challengeOf('schooladmin');
    s.clock.advance(6 * 60_000);
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: ch.challenge, code: code(secret) })).errorCode).toBe(
      ErrorCode.validation,
    );
    // Another person's code does not complete this person's challenge.
    const theirs = await challengeOf('bureau');
    next();
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: theirs.challenge, code: code(secret) })).errorCode).toBe(
      ErrorCode.wrongCredentials,
    );
    // An enrol challenge is not a code challenge.
    expect((await s.call('as.m.user.enrolSecondFactor', { challenge: (await challengeOf('schooladmin')).challenge })).errorCode).toBe(
      ErrorCode.validation,
    );
  });

  it('a provider resets an institution’s second factor, audited; another provider cannot (tenant isolation)', async () => {
    await enrol('school');
    expect((await challengeOf('school')).secondfactor).toBe('code');
    // provider2 enrolled above: it signs in with a code; I0001 is not its institution.
    expect((await s.call('as.m.user.resetSecondFactor', { musercode: 'I0001' }, await withCode('provider2'))).errorCode).toBe(
      ErrorCode.notFound,
    );
    expect((await challengeOf('school')).secondfactor).toBe('code');
    const provider = await s.login('provider');
    expect((await s.call('as.m.user.resetSecondFactor', { musercode: 'I0001' }, provider.token)).errorCode).toBe(0);
    expect((await password('school')).data.token).toBeTruthy();
    const log = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'as.m.user.resetSecondFactor'), eq(auditLog.musercode, 'P0001')));
    expect(log[0]).toMatchObject({ result: 'ok', detail: { target: 'I0001', removed: true } });
  });

  it('an institution resets its staff user’s second factor, audited; another institution’s staff user is not found', async () => {
    await enrol('teacher');
    expect((await s.call('as.m.system.user.resetSecondFactor', { userid: 'U0001' }, await withCode('hospital'))).errorCode).toBe(
      ErrorCode.notFound,
    );
    expect((await challengeOf('teacher')).secondfactor).toBe('code');
    const { token: school } = await s.login('school');
    expect((await s.call('as.m.system.user.resetSecondFactor', { userid: 'U0001' }, school)).errorCode).toBe(0);
    expect((await password('teacher')).data.token).toBeTruthy();
    expect((await audits('as.m.system.user.resetSecondFactor')).some((a) => a.musercode === 'I0001' && a.result === 'ok')).toBe(true);
  });

  it('a policy forces enrolment: the password answers an enrol challenge that may only enrol, then signs in', async () => {
    const school = await s.login('school');
    const before = (await password('teacher')).data.token as string;
    expect((await s.call('as.m.system.ping', {}, before)).errorCode).toBe(0);
    expect((await s.call('as.m.secondFactor.setPolicy', { required: true }, school.token)).errorCode).toBe(0);
    // The teacher's password-only session ends with the policy; the institution's own stays.
    expect((await s.call('as.m.system.ping', {}, before)).errorCode).toBe(ErrorCode.identityInvalid);
    expect((await s.call('as.m.system.ping', {}, school.token)).errorCode).toBe(0);
    // Only the account itself sets it, not its staff.
    const staff = await s.login('eldercare');
    expect((await s.call('as.m.secondFactor.getStatus', {}, staff.token)).data.policy).toEqual({ required: false });
    const ch = await challengeOf('teacher');
    expect(ch).toMatchObject({ secondfactor: 'enrol' });
    expect(ch.token).toBeUndefined();
    expect((await s.call('as.m.user.loginSecondFactor', { challenge: ch.challenge, code: '123456' })).errorCode).toBe(ErrorCode.validation);
    const e = await s.call('as.m.user.enrolSecondFactor', { challenge: ch.challenge });
    expect(e.errorCode).toBe(0);
    const done = await s.call('as.m.user.confirmSecondFactor', { challenge: ch.challenge, code: code(e.data.secret) });
    expect(done.errorCode).toBe(0);
    expect(done.data.recoverycodes).toHaveLength(10);
    expect((await s.call('as.m.system.ping', {}, done.data.user.token)).errorCode).toBe(0);
    expect((await s.call('as.m.secondFactor.setPolicy', { required: false }, done.data.user.token)).errorCode).toBe(
      ErrorCode.permissionDenied,
    );
    // Required: it cannot be turned off.
    next();
    expect((await s.call('as.m.secondFactor.disable', { code: code(e.data.secret) }, done.data.user.token)).errorCode).toBe(
      ErrorCode.permissionDenied,
    );
    // The institution itself is not below its own policy.
    expect((await password('school')).data.token).toBeTruthy();
    expect((await s.call('as.m.secondFactor.setPolicy', { required: false }, school.token)).errorCode).toBe(0);
    next();
    expect((await s.call('as.m.secondFactor.disable', { code: code(e.data.secret) }, done.data.user.token)).errorCode).toBe(0);
    expect((await password('teacher')).data.token).toBeTruthy();
  });

  it('login-as needs the actor signed in with a second factor where a policy requires one', async () => {
    const admin = await s.login('admin');
    const plain = await s.login('provider');
    expect((await s.call('as.m.secondFactor.setPolicy', { required: true }, admin.token)).errorCode).toBe(0);
    // The provider's password-only session, opened before the policy, ended with it.
    expect((await s.call('as.m.user.loginAs', { musercode: 'I0001' }, plain.token)).errorCode).toBe(ErrorCode.identityInvalid);
    const ch = await challengeOf('provider');
    expect(ch.secondfactor).toBe('enrol');
    const e = await s.call('as.m.user.enrolSecondFactor', { challenge: ch.challenge });
    const done = await s.call('as.m.user.confirmSecondFactor', { challenge: ch.challenge, code: code(e.data.secret) });
    expect((await s.call('as.m.user.loginAs', { musercode: 'I0001' }, done.data.user.token)).errorCode).toBe(0);
    expect((await s.call('as.m.secondFactor.setPolicy', { required: false }, admin.token)).errorCode).toBe(0);
    // Enrolled, the provider signs in with its code; a password-only session of it no longer exists.
    expect((await challengeOf('provider')).secondfactor).toBe('code');
  });
});
