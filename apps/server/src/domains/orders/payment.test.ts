import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { catalogue, ErrorCode } from '@xinli/contract';
import { loadConfig } from '../../config.js';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { toneWav } from '../../kit/upload/wav.js';
import { SANDBOX_SIGNATURE_HEADER, SandboxProvider } from './payment.js';
import { goods, orderGrant, shopOrder } from './tables.js';

/**
 * Issue 27 items 3 and 7: only the provider's signed callback pays an order (the sandbox's cashier is
 * the provider's own page, and runs only with PAYMENT_PROVIDER=sandbox); an order grants what its
 * goods granted when it was placed.
 */
describe.each(engines())('payment on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let entrytoken: string;
  let ip = 0;
  const nextIp = () => ({ 'x-test-ip': `10.21.0.${++ip}` });

  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    const provider = (await s.login('provider')).token;
    const made = await s.call(
      'as.m.user.createMUserClient',
      { musercode: 'I0001', title: '滨江一中', appids: ['000000002'], showresult: 1 },
      provider,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
  });
  afterAll(() => s?.close());

  const newGoods = async (body: Record<string, unknown> = {}) => {
    const res = await s.call('as.m.goods.insertGoods', { goodsname: '咨询', price: 1990, stock: 5, ...body }, school);
    expect(res.errorCode, res.errorMsg).toBe(0);
    expect((await s.call('as.m.goods.setGoodsStatus', { goodsid: res.data.goodsid, status: 1 }, school)).errorCode).toBe(0);
    return res.data.goodsid as string;
  };
  const buy = (goodsid: string) =>
    s.call(
      'as.c.shop.createOrder',
      { entrytoken, goodsid, quantity: 1, buyername: '王小明', buyerphone: '13812345678' },
      undefined,
      nextIp(),
    );
  const orderRow = async (orderid: string) => (await s.database.db.select().from(shopOrder).where(eq(shopOrder.orderid, orderid)))[0]!;
  const callback = async (notice: Record<string, unknown>, sign = true) => {
    const body = JSON.stringify({ callbackid: randomBytes(8).toString('hex'), ...notice });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (sign) headers[SANDBOX_SIGNATURE_HEADER] = await new SandboxProvider(s.database.db).sign(body);
    return s.app.inject({ method: 'POST', url: '/pay/sandbox/callback', payload: body, headers });
  };

  it('the buyer cannot mark their own order paid: no respondent action chooses an outcome (item 3)', async () => {
    const goodsid = await newGoods();
    const placed = await buy(goodsid);
    expect(placed.errorCode, placed.errorMsg).toBe(0);
    // The probe's request.
    const attack = await s.call(
      'as.c.shop.sandboxPay' as never,
      { ordertoken: placed.data.ordertoken, outcome: 'paid' },
      undefined,
      nextIp(),
    );
    expect(attack.errorCode).not.toBe(0);
    expect((await orderRow(placed.data.order.orderid)).status).toBe(2);
    for (const [name, def] of Object.entries(catalogue))
      if (name.startsWith('as.c.')) expect(Object.keys((def.input as { shape?: object }).shape ?? {}), name).not.toContain('outcome');
  });

  it('an unsigned or wrongly signed callback changes nothing; the signed one pays', async () => {
    const goodsid = await newGoods({ price: 800 });
    const o = (await buy(goodsid)).data;
    const notice = { providerref: o.payment.providerref, amount: 800, outcome: 'paid' };
    expect((await callback(notice, false)).statusCode).toBe(403);
    const body = JSON.stringify({ callbackid: 'x1', ...notice });
    const wrongKey = (
      await s.app.inject({
        method: 'POST',
        url: '/pay/sandbox/callback',
        payload: body,
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: randomBytes(32).toString('hex') },
      })
    ).statusCode;
    expect(wrongKey).toBe(403);
    expect((await orderRow(o.order.orderid)).status).toBe(2);
    expect((await callback(notice)).json()).toEqual({ ok: true, result: 'applied' });
    expect((await orderRow(o.order.orderid)).status).toBe(3);
  });

  it('the sandbox cashier is the provider’s own page: it pays by a signed callback, and its link cannot be altered', async () => {
    const goodsid = await newGoods({ price: 1200 });
    const o = (await buy(goodsid)).data;
    const url = new URL(o.payment.cashierurl, 'http://x');
    expect(url.pathname).toBe('/pay/sandbox/cashier');
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ ref: o.payment.providerref, amount: '1200' });
    const pay = (body: Record<string, unknown>) =>
      s.app.inject({
        method: 'POST',
        url: '/pay/sandbox/pay',
        payload: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    // A link whose amount was changed is refused and changes nothing.
    expect((await pay({ ...params, amount: '1', outcome: 'paid' })).statusCode).toBe(403);
    expect((await orderRow(o.order.orderid)).status).toBe(2);
    const paid = await pay({ ...params, outcome: 'paid' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ result: 'applied', return: expect.stringMatching(new RegExp(`^/r/${entrytoken}/shop\\?order=`)) });
    expect((await orderRow(o.order.orderid)).status).toBe(3);
    expect((await s.call('as.c.shop.getOrder', { ordertoken: o.ordertoken }, undefined, nextIp())).data.status).toBe(3);
  });

  it('an order grants what its goods granted when it was placed, at that price (item 7)', async () => {
    const audio = (
      await s.call('as.m.access.updateToOSS', { use: 'audio', filename: 'l.wav', data: toneWav(0.2, [440]).toString('base64') }, school)
    ).data.fileid;
    const courseid = (
      await s.call('as.m.course.insertCourse', { title: '199 元课程', lessons: [{ title: '一', videofileid: audio }] }, school)
    ).data.courseid;
    const goodsid = await newGoods({ goodsname: '小物', price: 1, grantkind: 'none' });
    const cheap = (await buy(goodsid)).data;
    // Staff turn the item into a ¥199 course before the cheap order is paid.
    const changed = await s.call(
      'as.m.goods.updateGoods',
      { goodsid, goodsname: '正念课', price: 19900, stock: 5, grantkind: 'course', grantcourseid: courseid },
      school,
    );
    expect(changed.errorCode, changed.errorMsg).toBe(0);
    expect((await callback({ providerref: cheap.payment.providerref, amount: 1, outcome: 'paid' })).json().result).toBe('applied');
    expect(await s.database.db.select().from(orderGrant).where(eq(orderGrant.orderid, cheap.order.orderid))).toEqual([]);
    const media = await s.call('as.c.content.getMedia', { entrytoken, ordertokens: [cheap.ordertoken] }, undefined, nextIp());
    expect(media.data.courses.find((c: { courseid: string }) => c.courseid === courseid)).toMatchObject({ locked: true, bought: false });

    // An order placed now records the course and the new price; staff turning it back grants it anyway.
    const dear = (await buy(goodsid)).data;
    expect(await orderRow(dear.order.orderid)).toMatchObject({ unitprice: 19900, grantkind: 'course', grantref: courseid });
    await s.database.db.update(goods).set({ grantkind: 'none', grantcourseid: null }).where(eq(goods.goodsid, goodsid));
    expect((await callback({ providerref: dear.payment.providerref, amount: 19900, outcome: 'paid' })).json().result).toBe('applied');
    expect(await s.database.db.select().from(orderGrant).where(eq(orderGrant.orderid, dear.order.orderid))).toEqual([
      expect.objectContaining({ kind: 'course', ref: courseid, status: 'granted' }),
    ]);
  });
});

describe.each(engines())('no payment provider on %s', (engine) => {
  let s: TestServer;
  let entrytoken: string;

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { paymentProvider: 'none' } as never });
    const provider = (await s.login('provider')).token;
    const made = await s.call(
      'as.m.user.createMUserClient',
      { musercode: 'I0001', title: '滨江一中', appids: ['000000002'], showresult: 1 },
      provider,
    );
    entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
  });
  afterAll(() => s?.close());

  it('lists goods but takes no order, and says so; the sandbox’s routes are not there', async () => {
    const shop = await s.call('as.c.shop.getGoods', { entrytoken }, undefined, { 'x-test-ip': '10.22.0.1' });
    expect(shop.errorCode).toBe(0);
    expect(shop.data.rows.length).toBeGreaterThan(0);
    expect(shop.data.ordering).toBe(false);
    const item = shop.data.rows[0];
    const [before] = await s.database.db.select().from(goods).where(eq(goods.goodsid, item.goodsid));
    const orders = (await s.database.db.select().from(shopOrder)).length;
    for (const lang of ['zh-CN', 'en-US']) {
      const refused = await s.call(
        'as.c.shop.createOrder',
        { entrytoken, goodsid: item.goodsid, quantity: 1, buyername: '王', buyerphone: '13812345678' },
        undefined,
        { 'x-test-ip': '10.22.0.2', 'accept-language': lang },
      );
      expect(refused.errorCode).toBe(ErrorCode.conflict);
      expect(refused.errorMsg).toBe(
        lang === 'en-US' ? 'Online payment is not available here, so orders cannot be placed' : '暂未开通在线支付，不能下单',
      );
    }
    expect((await s.database.db.select().from(shopOrder)).length).toBe(orders);
    expect((await s.database.db.select().from(goods).where(eq(goods.goodsid, item.goodsid)))[0]!.stock).toBe(before!.stock);
    for (const [method, url] of [
      ['POST', '/pay/sandbox/callback'],
      ['POST', '/pay/sandbox/pay'],
      ['GET', '/pay/sandbox/cashier'],
    ] as const)
      expect(
        (
          await s.app.inject({
            method,
            url,
            payload: method === 'POST' ? '{}' : undefined,
            headers: { 'content-type': 'application/json' },
          })
        ).statusCode,
        url,
      ).toBe(404);
  });
});

describe('the payment provider of a configuration', () => {
  it('is the sandbox only in the embedded demo or when asked for; none with DATABASE_URL; an unknown one stops the start', () => {
    expect(loadConfig({}).paymentProvider).toBe('sandbox');
    expect(loadConfig({ PAYMENT_PROVIDER: 'none' }).paymentProvider).toBe('none');
    expect(loadConfig({ XINLI_DEMO: '0' }).paymentProvider).toBe('none');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).paymentProvider).toBe('none');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', PAYMENT_PROVIDER: 'sandbox' }).paymentProvider).toBe('sandbox');
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'alipay' })).toThrow(/PAYMENT_PROVIDER=alipay/);
    expect(loadConfig({}).orderExpiryMinutes).toBe(30);
    expect(loadConfig({ ORDER_EXPIRY_MINUTES: '15' }).orderExpiryMinutes).toBe(15);
  });
});
