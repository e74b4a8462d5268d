import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { testConfig } from '../../config.js';
import { session } from './tables.js';
import { hashToken } from './sessions.js';

/**
 * Issue 27 item 15: a login-as session ends with the session that opened it: sign-out, revocation,
 * expiry and deletion of the opener (and of the opener's opener) end it at once, also for a caller
 * another server process holds in its cache.
 */
describe.each(engines())('login-as sessions end with their opener on %s', (engine) => {
  let s: TestServer;
  const config = testConfig();
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  const ping = async (token: string) => (await s.call('as.m.system.ping', {}, token)).errorCode;
  const loginAs = async (musercode: string, token: string) => {
    const res = await s.call('as.m.user.loginAs', { musercode }, token);
    expect(res.errorCode).toBe(0);
    return res.data.token as string;
  };

  it('signing out of the provider’s session ends the institution session it opened (the probe)', async () => {
    const provider = (await s.login('provider')).token;
    const as = await loginAs('I0001', provider);
    // Used a few times first, so the caller is in the cache when the opener signs out.
    for (let i = 0; i < 3; i++) expect(await ping(as)).toBe(0);
    expect((await s.call('as.m.user.logout', {}, provider)).errorCode).toBe(0);
    expect(await ping(as)).toBe(ErrorCode.identityInvalid);
    // Another provider session of the same account is untouched.
    const other = (await s.login('provider')).token;
    expect(await ping(other)).toBe(0);
  });

  it('a chain ends with any session in it: super → provider → institution', async () => {
    const admin = (await s.login('admin')).token;
    const asProvider = await loginAs('P0001', admin);
    const asSchool = await loginAs('I0001', asProvider);
    expect(await ping(asSchool)).toBe(0);
    expect((await s.call('as.m.user.logout', {}, asProvider)).errorCode).toBe(0);
    expect(await ping(asSchool)).toBe(ErrorCode.identityInvalid);
    expect(await ping(admin)).toBe(0);

    const asProvider2 = await loginAs('P0001', admin);
    const asSchool2 = await loginAs('I0001', asProvider2);
    expect((await s.call('as.m.user.logout', {}, admin)).errorCode).toBe(0);
    expect(await ping(asProvider2)).toBe(ErrorCode.identityInvalid);
    expect(await ping(asSchool2)).toBe(ErrorCode.identityInvalid);
  });

  it('ends when the opener is revoked or deleted behind the application’s back', async () => {
    let provider = (await s.login('provider')).token;
    let as = await loginAs('I0002', provider);
    expect(await ping(as)).toBe(0);
    await s.database.db.update(session).set({ revokedat: s.clock.now() }).where(eq(session.tokenhash, hashToken(provider)));
    expect(await ping(as)).toBe(ErrorCode.identityInvalid);

    provider = (await s.login('provider')).token;
    as = await loginAs('I0002', provider);
    expect(await ping(as)).toBe(0);
    await s.database.db.delete(session).where(eq(session.tokenhash, hashToken(provider)));
    expect(await ping(as)).toBe(ErrorCode.identityInvalid);
  });

  it('ends when the opener passes its absolute lifetime, though the login-as session itself is younger and in use', async () => {
    const provider = (await s.login('provider')).token;
    const step = (config.sessionIdleMinutes - 1) * 60_000;
    const lifetime = config.sessionAbsoluteHours * 3_600_000;
    // The provider's session is two steps old (and in use) when it acts as the school.
    for (let i = 0; i < 2; i++) {
      s.clock.advance(step);
      expect(await ping(provider)).toBe(0);
    }
    const as = await loginAs('I0001', provider);
    // Work goes on in the institution's tab only; that keeps the provider's session from idling out.
    let elapsed = 2 * step;
    while (elapsed + step < lifetime) {
      s.clock.advance(step);
      elapsed += step;
      expect(await ping(as)).toBe(0);
    }
    s.clock.advance(lifetime - elapsed + 60_000);
    expect(await ping(as)).toBe(ErrorCode.identityInvalid);
  });

  it('ends with an idle opener: an opener that nobody used, directly or through it, for too long', async () => {
    const provider = (await s.login('provider')).token;
    const as = await loginAs('I0001', provider);
    // Only the login-as session's own last-seen is kept fresh behind the application's back.
    s.clock.advance((config.sessionIdleMinutes + 1) * 60_000);
    await s.database.db.update(session).set({ lastseenat: s.clock.now() }).where(eq(session.tokenhash, hashToken(as)));
    expect(await ping(as)).toBe(ErrorCode.identityInvalid);
  });

  it('a caller another process holds in its cache does not outlive the opener’s sign-out', async () => {
    const second = await s.appOnTestClock();
    try {
      const call = async (token: string) =>
        (await second.inject({ method: 'POST', url: '/api/as.m.system.ping/1.0.0/action', payload: '{}', headers: { 'content-type': 'application/json', token } })).json()
          .errorCode as number;
      const provider = (await s.login('provider')).token;
      const as = await loginAs('I0001', provider);
      for (let i = 0; i < 3; i++) expect(await call(as)).toBe(0);
      expect((await s.call('as.m.user.logout', {}, provider)).errorCode).toBe(0);
      expect(await call(as)).toBe(ErrorCode.identityInvalid);
    } finally {
      await second.close();
    }
  });
});
