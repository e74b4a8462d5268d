import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { SANDBOX_SIGNATURE_HEADER, SandboxProvider } from './payment.js';
import { goods, orderEvent, payCallback, shopOrder } from './tables.js';

const MINUTE = 60_000;

/**
 * Issue 27 item 8: unpaid orders expire (ORDER_EXPIRY_MINUTES, here the default 30) through the job
 * queue, become cancelled and give their stock back; a signed callback that comes later pays nothing.
 * Stock is taken by one conditional update, so parallel buyers never oversell.
 */
describe.each(engines())('unpaid orders expire on %s', (engine) => {
  let s: TestServer;
  let entrytoken: string;
  let ip = 0;
  const nextIp = () => ({ 'x-test-ip': `10.23.${Math.floor(++ip / 250)}.${ip % 250}` });
  const logs: string[] = [];

  beforeAll(async () => {
    s = await startTestServer(engine, { logStream: { write: (line: string) => logs.push(line) } as never, config: { logLevel: 'warn' } });
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

  const newGoods = async (stock: number) => {
    // Signed in afresh: the test clock moves past the session's idle expiry.
    const school = (await s.login('school')).token;
    const res = await s.call('as.m.goods.insertGoods', { goodsname: '咨询', price: 500, stock }, school);
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
  const stock = async (goodsid: string) => (await s.database.db.select().from(goods).where(eq(goods.goodsid, goodsid)))[0]!.stock;
  const status = async (orderid: string) => (await s.database.db.select().from(shopOrder).where(eq(shopOrder.orderid, orderid)))[0]!.status;
  const callback = async (providerref: string, amount: number) => {
    const body = JSON.stringify({ callbackid: randomBytes(8).toString('hex'), providerref, amount, outcome: 'paid' });
    const signature = await new SandboxProvider(s.database.db).sign(body);
    return s.app.inject({
      method: 'POST',
      url: '/pay/sandbox/callback',
      payload: body,
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    });
  };

  it('five orders never paid hold the stock only until they expire; expiry cancels them and gives it back', async () => {
    const goodsid = await newGoods(5);
    const held = await Promise.all([1, 2, 3, 4, 5].map(() => buy(goodsid)));
    expect(held.map((h) => h.errorCode)).toEqual([0, 0, 0, 0, 0]);
    expect((await buy(goodsid)).errorMsg).toBe('库存不足');
    expect(await stock(goodsid)).toBe(0);

    s.clock.advance(29 * MINUTE);
    await s.jobs.runDue();
    expect(await stock(goodsid)).toBe(0); // not yet
    s.clock.advance(MINUTE);
    await s.jobs.runDue();
    expect(await stock(goodsid)).toBe(5);
    for (const h of held) {
      expect(await status(h.data.order.orderid)).toBe(5);
      const events = await s.database.db.select().from(orderEvent).where(eq(orderEvent.orderid, h.data.order.orderid));
      expect(events.at(-1)).toMatchObject({ fromstatus: 2, tostatus: 5, by: 'system', note: 'expired' });
    }
    // Running the jobs again changes nothing (the stock is given back once).
    s.clock.advance(MINUTE);
    await s.jobs.runDue();
    expect(await stock(goodsid)).toBe(5);

    // A late signed callback for an expired order pays nothing: refused, logged, recorded.
    const late = held[0]!.data;
    const res = await callback(late.payment.providerref, 500);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, result: 'expired' });
    expect(await status(late.order.orderid)).toBe(5);
    expect(await stock(goodsid)).toBe(5);
    expect(logs.join('\n')).toContain('payment callback for an expired order refused');
    expect(await s.database.db.select().from(payCallback).where(eq(payCallback.providerref, late.payment.providerref))).toHaveLength(1);
  });

  it('a callback after the expiry but before the job ran does not pay either: it expires the order', async () => {
    const goodsid = await newGoods(1);
    const o = (await buy(goodsid)).data;
    s.clock.advance(30 * MINUTE);
    expect((await callback(o.payment.providerref, 500)).json()).toEqual({ ok: true, result: 'expired' });
    expect(await status(o.order.orderid)).toBe(5);
    expect(await stock(goodsid)).toBe(1);
    await s.jobs.runDue();
    expect(await stock(goodsid)).toBe(1);
    // A callback in time pays.
    const p = (await buy(goodsid)).data;
    s.clock.advance(29 * MINUTE);
    expect((await callback(p.payment.providerref, 500)).json()).toEqual({ ok: true, result: 'applied' });
    s.clock.advance(2 * MINUTE);
    await s.jobs.runDue();
    expect(await status(p.order.orderid)).toBe(3);
    expect(await stock(goodsid)).toBe(0);
  });

  it('parallel buyers never oversell', async () => {
    const goodsid = await newGoods(5);
    const tries = await Promise.all(Array.from({ length: 16 }, () => buy(goodsid)));
    expect(tries.filter((t) => t.errorCode === 0)).toHaveLength(5);
    expect(tries.filter((t) => t.errorCode === ErrorCode.conflict)).toHaveLength(11);
    expect(await stock(goodsid)).toBe(0);
    const orders = await s.database.db.select().from(shopOrder).where(eq(shopOrder.goodsid, goodsid));
    expect(orders).toHaveLength(5);
  });
});
