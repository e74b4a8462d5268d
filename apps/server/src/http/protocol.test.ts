import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../test/harness.js';
import { auditLog } from '../domains/audit/tables.js';
import { muserPermission } from '../domains/accounts/tables.js';
import { handlers } from '../domains/index.js';

describe.each(engines())('the action route on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine, { config: { bodyLimitBytes: 64 * 1024 } });
  });
  afterAll(() => s?.close());

  it('answers an unknown action with 404 and the envelope', async () => {
    const res = await s.call('as.m.nothing.here' as never, {});
    expect(res.status).toBe(404);
    expect(res.errorCode).toBe(ErrorCode.notFound);
    expect(res.errorMsg).toContain('as.m.nothing.here');
  });

  it('answers malformed JSON with 400 in the caller’s language', async () => {
    const res = await s.raw('as.m.user.login', '{"username": ', { 'accept-language': 'en' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errorCode: ErrorCode.validation, errorMsg: 'The request is malformed', data: null });
  });

  it('answers an oversized body with 413', async () => {
    const res = await s.raw('as.m.user.login', JSON.stringify({ username: 'a'.repeat(70 * 1024), pwd: 'x' }));
    expect(res.statusCode).toBe(413);
    expect(res.json().errorMsg).toBe('请求内容过大');
  });

  it('rejects unknown fields and changes nothing', async () => {
    const p = await s.login('provider');
    const before = await s.database.db.select().from(muserPermission).where(eq(muserPermission.musercode, 'I0002'));
    const res = await s.call('as.m.permissions.updateUserPermissions', { musercode: 'I0002', permissions: ['00013'], enabled: 0 }, p.token);
    expect(res.errorCode).toBe(ErrorCode.validation);
    expect(res.errorMsg).toContain('enabled');
    const after = await s.database.db.select().from(muserPermission).where(eq(muserPermission.musercode, 'I0002'));
    expect(after).toEqual(before);
  });

  it('refuses an action without its permission code and audits the refusal', async () => {
    const t = await s.login('teacher'); // the counsellor role has no 00023/00022/00021
    const res = await s.call('as.m.permissions.getAllPermissions', { musercode: 'I0001' }, t.token);
    expect(res.errorCode).toBe(ErrorCode.permissionDenied);
    const rows = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'as.m.permissions.getAllPermissions'), eq(auditLog.result, 'denied')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ musercode: 'I0001', userid: 'U0001' });
  });

  it('names every answer\'s request in x-request-id, the id its audit row records', async () => {
    const t = await s.login('teacher');
    const ok = await s.raw('as.m.system.ping', '{}', { token: t.token });
    const unknown = await s.raw('as.m.nothing.here', '{}');
    const signedOut = await s.raw('as.m.system.ping', '{}', { token: 'not-a-token' });
    const denied = await s.raw('as.m.permissions.getAllPermissions', JSON.stringify({ musercode: 'I0001' }), { token: t.token });
    const ids = [ok, unknown, signedOut, denied].map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(4);
    const [row] = await s.database.db.select().from(auditLog).where(eq(auditLog.requestid, String(ids[3])));
    expect(row).toMatchObject({ action: 'as.m.permissions.getAllPermissions', result: 'denied' });
  });

  it('never grants codes the caller does not hold', async () => {
    const school = await s.login('school');
    const res = await s.call('as.m.permissions.updateUserPermissions', { musercode: 'I0001', permissions: ['00020'] }, school.token);
    expect(res.errorCode).toBe(ErrorCode.permissionDenied);
    const p = await s.login('provider');
    const bad = await s.call('as.m.permissions.updateUserPermissions', { musercode: 'I0002', permissions: ['00013', '0000000099'] }, p.token);
    expect(bad.errorCode).toBe(ErrorCode.permissionDenied);
    const ok = await s.call('as.m.permissions.updateUserPermissions', { musercode: 'I0002', permissions: ['00013', '00046'] }, p.token);
    expect(ok.errorCode).toBe(0);
    expect((await s.call('as.m.permissions.getAllPermissions', { musercode: 'I0002' }, p.token)).data.granted).toEqual(['00013', '00046']);
    expect((await s.call('as.m.permissions.getAllPermissions', { musercode: 'I0004' }, p.token)).errorCode).toBe(ErrorCode.notFound);
  });

  it('hides internal errors behind a generic message', async () => {
    const broken = await s.appOnTestClock({
      handlers: { ...handlers, 'as.m.system.ping': async () => { throw new Error('relation "secret_table" does not exist at /srv/app.ts:12'); } },
    });
    const t = await s.login('school');
    const res = await broken.inject({ method: 'POST', url: '/api/as.m.system.ping/1.0.0/action', payload: {}, headers: { token: t.token } });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/secret_table|srv|\.ts/);
    expect(res.json().errorCode).toBe(ErrorCode.internal);
    await broken.close();
  });

  it('refuses to start while a catalogued action has no handler', async () => {
    const { 'as.m.system.ping': _gone, ...rest } = handlers;
    await expect(s.appOnTestClock({ handlers: rest })).rejects.toThrow(/as\.m\.system\.ping/);
  });
});

describe.each(engines())('text the database cannot hold on %s', (engine) => {
  it('refuses a NUL character anywhere in the input', async () => {
    const s = await startTestServer(engine);
    const t = (await s.login('provider')).token;
    const res = await s.call('as.m.user.updateMUser', { musercode: 'P0001', insname: 'a\u0000b' }, t, { 'accept-language': 'en' });
    expect(res.status).toBe(200);
    expect(res.errorCode).toBe(ErrorCode.validation);
    expect(res.errorMsg).toBe('The input contains an invalid character');
    await s.close();
  });
});
