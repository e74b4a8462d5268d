import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, ORDER_TRANSITIONS } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { AppError } from '../../http/errors.js';
import { moveOrder } from './machine.js';
import { SANDBOX_SIGNATURE_HEADER, SandboxProvider } from './payment.js';
import { goods, orderEvent, shopOrder } from './tables.js';
import { buyerPhoneColumns } from './contact.js';

const STATUSES = [1, 2, 3, 4, 5, 10, 11];

describe.each(engines())('goods and orders on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let provider: string;
  let entrytoken: string;
  let ip = 0;
  const nextIp = () => ({ 'x-test-ip': `10.11.0.${++ip}` });

  beforeAll(async () => {
    s = await startTestServer(engine);
    [school, provider] = await Promise.all(['school', 'provider'].map(async (u) => (await s.login(u)).token));
    const made = await s.call(
      'as.m.user.createMUserClient',
      { musercode: 'I0001', title: '滨江一中心理中心', appids: ['000000002'], showresult: 1, hotline: '0571-1' },
      provider,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
  });
  afterAll(() => s?.close());

  const newGoods = async (body: Record<string, unknown> = {}, token = school) => {
    const res = await s.call('as.m.goods.insertGoods', { goodsname: '减压咨询', price: 1990, stock: 5, ...body }, token);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data.goodsid as string;
  };
  const onSale = async (goodsid: string, token = school) =>
    expect((await s.call('as.m.goods.setGoodsStatus', { goodsid, status: 1 }, token)).errorCode).toBe(0);
  const buy = (goodsid: string, quantity = 1) =>
    s.call('as.c.shop.createOrder', { entrytoken, goodsid, quantity, buyername: '王小明', buyerphone: '13812345678' }, undefined, nextIp());
  const orderRow = async (orderid: string) => (await s.database.db.select().from(shopOrder).where(eq(shopOrder.orderid, orderid)))[0]!;
  const events = async (orderid: string) => s.database.db.select().from(orderEvent).where(eq(orderEvent.orderid, orderid));
  /** Pays (or fails) at the sandbox's cashier, as the buyer's browser does; answers the buyer's view of the order. */
  const pay = async (placed: { ordertoken: string; payment: { cashierurl: string } }, outcome: 'paid' | 'failed') => {
    const link = Object.fromEntries(new URL(placed.payment.cashierurl, 'http://x').searchParams);
    const res = await s.app.inject({
      method: 'POST',
      url: '/pay/sandbox/pay',
      payload: JSON.stringify({ ...link, outcome }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    return s.call('as.c.shop.getOrder', { ordertoken: placed.ordertoken }, undefined, nextIp());
  };

  it('sells only goods on sale, takes stock atomically, and pays at the sandbox’s cashier', async () => {
    const goodsid = await newGoods({ stock: 2 });
    expect((await buy(goodsid)).errorCode).toBe(ErrorCode.notFound); // to be listed: not for sale
    await onSale(goodsid);
    const shop = await s.call('as.c.shop.getGoods', { entrytoken }, undefined, nextIp());
    expect(shop.data.rows.find((g: { goodsid: string }) => g.goodsid === goodsid)).toMatchObject({
      price: 1990,
      stock: 2,
      grantkind: 'none',
    });

    // Two parallel buyers of the last two: both get one; a third finds it sold out.
    const [a, b] = await Promise.all([buy(goodsid), buy(goodsid)]);
    expect([a.errorCode, b.errorCode]).toEqual([0, 0]);
    const sold = await buy(goodsid);
    expect(sold.errorCode).toBe(ErrorCode.conflict);
    expect(sold.errorMsg).toBe('库存不足');
    expect((await s.database.db.select().from(goods).where(eq(goods.goodsid, goodsid)))[0]!.stock).toBe(0);

    expect(a.data.order).toMatchObject({ status: 2, amount: 1990, quantity: 1 });
    const paid = await pay(a.data, 'paid');
    expect(paid.data).toMatchObject({ status: 3, amount: 1990 });
    const failed = await pay(b.data, 'failed');
    expect(failed.data.status).toBe(4);
    // A failed payment gives its stock back.
    expect((await s.database.db.select().from(goods).where(eq(goods.goodsid, goodsid)))[0]!.stock).toBe(1);
    // Paying again changes nothing.
    expect((await pay(a.data, 'failed')).data.status).toBe(3);

    const page = await s.call('as.m.order.getOrderPage', { goodsid, status: 3 }, school);
    expect(page.data).toMatchObject({
      total: 1,
      rows: [
        {
          orderid: a.data.order.orderid,
          status: 3,
          amount: 1990,
          buyername: '王*明',
          buyerphone: '138****5678',
          paidat: s.clock.now().toISOString(),
        },
      ],
    });
    const history = await s.call('as.m.order.getOrderHistory', { orderid: a.data.order.orderid }, school);
    expect(history.data.events.map((e: { fromstatus: number | null; tostatus: number }) => [e.fromstatus, e.tostatus])).toEqual([
      [null, 1],
      [1, 2],
      [2, 3],
    ]);
    // Goods with orders cannot be deleted.
    expect((await s.call('as.m.goods.deleteGoods', { goodsid }, school)).errorCode).toBe(ErrorCode.conflict);
  });

  it('refunds partly and fully, never more than paid and not yet refunded', async () => {
    const goodsid = await newGoods({ price: 1000, stock: 10 });
    await onSale(goodsid);
    const o = (await buy(goodsid, 3)).data;
    await pay(o, 'paid');
    const orderid = o.order.orderid;
    const tooMuch = await s.call('as.m.order.refundOrder', { orderid, amount: 3001 }, school);
    expect(tooMuch.errorCode).toBe(ErrorCode.validation);
    expect(tooMuch.errorMsg).toBe('退款金额不能超过可退金额 ¥30.00');
    const part = await s.call('as.m.order.refundOrder', { orderid, amount: 1000, note: '少上一节课' }, school);
    expect(part.data).toMatchObject({ status: 10, refunded: 1000 });
    expect((await s.call('as.m.order.refundOrder', { orderid, amount: 2001 }, school)).errorCode).toBe(ErrorCode.validation);
    const rest = await s.call('as.m.order.refundOrder', { orderid, amount: 2000 }, school);
    expect(rest.data).toMatchObject({ status: 11, refunded: 3000 });
    const again = await s.call('as.m.order.refundOrder', { orderid, amount: 1 }, school, { 'accept-language': 'en-US' });
    expect(again.errorCode).toBe(ErrorCode.conflict);
    expect(again.errorMsg).toBe('Only a paid order can be refunded (this one: Refunded)');
    // An unpaid order cannot be refunded.
    const unpaid = (await buy(goodsid)).data.order.orderid;
    expect((await s.call('as.m.order.refundOrder', { orderid: unpaid, amount: 1 }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.order.cancelOrder', { orderid: unpaid }, school)).errorCode).toBe(0);
    expect((await orderRow(unpaid)).status).toBe(5);
  });

  it('refuses every transition SPEC §3 does not allow, and changes nothing', async () => {
    const goodsid = await newGoods({ price: 500, stock: 1000 });
    const db = s.database.db;
    let n = 0;
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        if (ORDER_TRANSITIONS[from]!.includes(to)) continue;
        const orderid = `ORT${from}_${to}_${n++}`;
        const at = s.clock.now();
        await db.insert(shopOrder).values({
          orderid,
          musercode: 'I0001',
          goodsid,
          goodsname: 'x',
          quantity: 1,
          unitprice: 500,
          amount: 500,
          refunded: from === 10 ? 100 : from === 11 ? 500 : 0,
          status: from,
          buyername: 'x',
          ...buyerPhoneColumns('13800000000'),
          provider: 'sandbox',
          providerref: `PYT${orderid}`,
          tokenhash: orderid,
          expiresat: at,
          createdat: at,
          paidat: [3, 10, 11].includes(from) ? at : null,
          updatedat: at,
        });
        const refused = await db
          .transaction((tx) => moveOrder(tx, orderid, to, { by: 'test', at }))
          .then(
            () => null,
            (e: unknown) => e,
          );
        expect(refused, `${from} → ${to}`).toBeInstanceOf(AppError);
        expect((refused as AppError).code).toBe(ErrorCode.conflict);
        expect((await orderRow(orderid)).status).toBe(from);
        expect(await events(orderid)).toEqual([]);
      }
    }
    expect(n).toBe(49 - Object.values(ORDER_TRANSITIONS).flat().length);
  });

  it('verifies payment callbacks: a forged one is refused, a replay or a parallel duplicate changes nothing', async () => {
    const goodsid = await newGoods({ price: 800, stock: 10 });
    await onSale(goodsid);
    const o = (await buy(goodsid)).data;
    const orderid = o.order.orderid;
    const sandbox = new SandboxProvider(s.database.db);
    const post = (body: string, signature: string) =>
      s.app.inject({
        method: 'POST',
        url: '/pay/sandbox/callback',
        payload: body,
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
      });

    const body = JSON.stringify({ callbackid: 'cb-1', providerref: o.payment.providerref, amount: 800, outcome: 'paid' });
    const forged = await post(body, 'a'.repeat(64));
    expect(forged.statusCode).toBe(403);
    const tampered = await post(body.replace('800', '1'), await sandbox.sign(body));
    expect(tampered.statusCode).toBe(403);
    expect((await orderRow(orderid)).status).toBe(2);

    // A signed callback for another amount is verified but changes nothing.
    const wrongAmount = JSON.stringify({ callbackid: 'cb-0', providerref: o.payment.providerref, amount: 1, outcome: 'paid' });
    expect((await post(wrongAmount, await sandbox.sign(wrongAmount))).json()).toEqual({ ok: true, result: 'ignored' });

    const signature = await sandbox.sign(body);
    const other = JSON.stringify({ callbackid: 'cb-2', providerref: o.payment.providerref, amount: 800, outcome: 'failed' });
    const [first, second] = await Promise.all([post(body, signature), post(other, await sandbox.sign(other))]);
    expect([first.json().result, second.json().result].sort()).toEqual(['applied', 'ignored']);
    const status = (await orderRow(orderid)).status;
    expect([3, 4]).toContain(status);
    expect((await post(body, signature)).json()).toEqual({ ok: true, result: 'replayed' });
    expect((await orderRow(orderid)).status).toBe(status);
    expect((await events(orderid)).length).toBe(3);
  });

  it('keeps goods and orders to their institution; bad input changes nothing', async () => {
    const theirs = await newGoods({ musercode: 'I0002', goodsname: '孕期课程' }, provider);
    for (const [name, body] of [
      ['as.m.goods.updateGoods', { goodsid: theirs, goodsname: 'x', price: 1, stock: 1 }],
      ['as.m.goods.setGoodsStatus', { goodsid: theirs, status: 1 }],
      ['as.m.goods.deleteGoods', { goodsid: theirs }],
      ['as.m.order.getOrderPage', { goodsid: 'x', musercode: 'I0002' }],
    ] as const)
      expect((await s.call(name, body, school)).errorCode, name).toBe(ErrorCode.notFound);
    await onSale(theirs, provider);
    expect((await buy(theirs)).errorCode).toBe(ErrorCode.notFound); // not the school's goods
    const before = (await s.call('as.m.goods.getGoodsPage', {}, school)).data.total;
    for (const bad of [{ price: -1 }, { price: 1.5 }, { stock: -1 }, { goodsname: '' }, { price: 100_000_01 }])
      expect((await s.call('as.m.goods.insertGoods', { goodsname: 'g', price: 100, stock: 1, ...bad }, school)).errorCode).toBe(
        ErrorCode.validation,
      );
    expect((await s.call('as.m.goods.getGoodsPage', {}, school)).data.total).toBe(before);
  });

  it('filters by an amount range in fen, both ends included; a minimum above the maximum is refused', async () => {
    const goodsid = await newGoods({ price: 700, stock: 10 });
    await onSale(goodsid);
    const [one, two] = [(await buy(goodsid, 1)).data.order.orderid, (await buy(goodsid, 2)).data.order.orderid];
    const ids = async (f: Record<string, number>) =>
      ((await s.call('as.m.order.getOrderPage', { goodsid, ...f }, school)).data.rows as { orderid: string }[])
        .map((r) => r.orderid)
        .sort();
    expect(await ids({ amountmin: 700, amountmax: 700 })).toEqual([one]);
    expect(await ids({ amountmin: 701 })).toEqual([two]);
    expect(await ids({ amountmax: 1400 })).toEqual([one, two].sort());
    expect(await ids({ amountmin: 1401 })).toEqual([]);
    const reversed = await s.call('as.m.order.getOrderPage', { amountmin: 1000, amountmax: 999 }, school, { 'accept-language': 'en-US' });
    expect(reversed.errorCode).toBe(ErrorCode.validation);
    expect(reversed.errorMsg).toBe('The lowest amount cannot be above the highest');
    for (const bad of [{ amountmin: -1 }, { amountmax: 1.5 }, { amountmin: '100' }])
      expect((await s.call('as.m.order.getOrderPage', bad as never, school)).errorCode).toBe(ErrorCode.validation);
    const exported = await s.app.inject({
      method: 'POST',
      url: '/api/as.m.order.exportOrders/1.0.0/action',
      payload: JSON.stringify({ amountmin: 2, amountmax: 1 }),
      headers: { 'content-type': 'application/json', token: school },
    });
    expect(exported.json().errorCode).toBe(ErrorCode.validation);
  });

  it('exports the filtered orders as a workbook', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/as.m.order.exportOrders/1.0.0/action',
      payload: JSON.stringify({ status: 3 }),
      headers: { 'content-type': 'application/json', token: school },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
