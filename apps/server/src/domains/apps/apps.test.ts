import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';

describe.each(engines())('population apps on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  it('lists every population app, or one', async () => {
    const t = (await s.login('school')).token;
    const all = await s.call('as.m.app.getAppList', { appid: '' }, t);
    expect(all.data.map((a: { appid: string }) => a.appid)).toEqual(['000000001', '000000002', '000000003', '000000004', '000000005']);
    const one = await s.call('as.m.app.getAppList', { appid: '000000004' }, t, { 'accept-language': 'en-US' });
    expect(one.data).toEqual([{ appid: '000000004', appname: 'Older adults', scenecode: '000000004', iconurl: '' }]);
  });

  it('lists an account’s apps within scope only', async () => {
    const p = (await s.login('provider')).token;
    expect((await s.call('as.m.app.muser.getMUserAppList', { musercode: 'P0001' }, p)).data).toHaveLength(4);
    expect((await s.call('as.m.app.muser.getMUserAppList', { musercode: 'I0002' }, p)).data.map((a: { appid: string }) => a.appid)).toEqual(['000000001']);
    expect((await s.call('as.m.app.muser.getMUserAppList', { musercode: 'I0004' }, p)).errorCode).toBe(ErrorCode.notFound);
  });

  it('gives apps only from the caller’s own, and changes nothing on refusal', async () => {
    const p = (await s.login('provider')).token;
    expect((await s.call('as.m.app.muser.insertMUserApp', { musercode: 'I0002', appids: ['000000005'] }, p)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.app.muser.getMUserAppList', { musercode: 'I0002' }, p)).data).toHaveLength(1);
    expect((await s.call('as.m.app.muser.insertMUserApp', { musercode: 'I0002', appids: ['000000001', '000000004'] }, p)).errorCode).toBe(0);
    expect((await s.call('as.m.app.muser.getMUserAppList', { musercode: 'I0002' }, p)).data).toHaveLength(2);
    const school = (await s.login('school')).token;
    expect((await s.call('as.m.app.muser.insertMUserApp', { musercode: 'I0002', appids: [] }, school)).errorCode).toBe(ErrorCode.permissionDenied);
  });
});
