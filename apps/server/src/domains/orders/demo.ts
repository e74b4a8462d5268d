import type { DbOrTx } from '../../db/database.js';
import type { FileStorage } from '../../kit/storage/index.js';
import { drawPng } from '../../kit/upload/png.js';
import { setFileUses, storeFile } from '../files/index.js';
import { newId } from '../../kit/index.js';
import { applyNotice } from './machine.js';
import { SandboxProvider } from './payment.js';
import { refundOrder } from './orders.js';
import { placeOrder } from './shop.js';
import { goods } from './tables.js';

const GOODS = [
  {
    goodsname: '正念减压 8 周课程',
    price: 19900,
    stock: 50,
    status: 1,
    grantkind: 'course',
    description: '每周一节视频课，配练习音频。',
    colour: [67, 167, 119],
  },
  {
    goodsname: '一对一心理咨询（50 分钟）',
    price: 30000,
    stock: 20,
    status: 1,
    grantkind: 'none',
    description: '由学校心理中心的咨询师提供。',
    colour: [60, 110, 170],
  },
  {
    goodsname: '家长情绪课堂',
    price: 9900,
    stock: 100,
    status: 0,
    grantkind: 'none',
    description: '写给家长的 6 节短课。',
    colour: [200, 130, 70],
  },
] as const;

const BUYERS = [
  ['李晓雨', '13800001234'],
  ['张伟', '13900005678'],
  ['陈静', '13700002468'],
] as const;

/**
 * The demo's goods and orders for the school, through the orders domain's own code: goods with
 * covers from the file store, orders placed (stock taken) as sandbox payments, paid or failed by
 * signed sandbox callbacks that are verified like any other (a paid order of the course goods is
 * fulfilled: its buyer is entitled to the course), one partly refunded, one left paying (it expires
 * 30 minutes after the seed, as any unpaid order does). This is history written at seeding, whatever
 * PAYMENT_PROVIDER the server then runs with.
 */
export async function seedDemoOrders(tx: DbOrTx, now: Date, courseid: string, storage?: FileStorage) {
  const ids: string[] = [];
  for (const g of GOODS) {
    const goodsid = newId('GD');
    let coverfileid: string | null = null;
    if (storage) {
      const [r, gr, b] = g.colour;
      const bytes = drawPng(240, 240, (x, y) =>
        Math.hypot(x - 120, y - 110) < 60 ? [255, 250, 235] : [Math.round(r + (y / 240) * 40), gr, b],
      );
      coverfileid = (
        await storeFile(tx, storage, { musercode: 'I0001', use: 'image', filename: `${g.goodsname}.png`, bytes, createdby: 'I0001', now })
      ).fileid;
    }
    const { colour: _colour, ...fields } = g;
    const grantcourseid = fields.grantkind === 'course' ? courseid : null;
    await tx.insert(goods).values({ ...fields, grantcourseid, goodsid, musercode: 'I0001', coverfileid, createdat: now, updatedat: now });
    if (coverfileid) await setFileUses(tx, 'goods', goodsid, [coverfileid]);
    ids.push(goodsid);
  }
  const sandbox = new SandboxProvider(tx);
  const pay = async (providerref: string, amount: number, outcome: 'paid' | 'failed', at: Date) => {
    const { body, signature } = await sandbox.callback({ providerref, amount, outcome });
    await applyNotice(tx, sandbox.name, (await sandbox.verify(body, signature))!, at);
  };
  const plan: [number, number, 'paid' | 'failed' | null, number][] = [
    [0, 0, 'paid', 3],
    [1, 1, 'paid', 2],
    [0, 2, 'failed', 1],
    [1, 0, null, 0],
  ];
  for (const [g, b, outcome, daysAgo] of plan) {
    const at = new Date(now.getTime() - daysAgo * 86_400_000);
    const placed = await placeOrder(tx, {
      musercode: 'I0001',
      goodsid: ids[g]!,
      quantity: 1,
      buyername: BUYERS[b]![0],
      buyerphone: BUYERS[b]![1],
      now: at,
      provider: sandbox,
      expiryMinutes: 30,
      returnTo: () => '/',
    });
    if (outcome) await pay(placed.payment.providerref, placed.payment.amount, outcome, at);
    if (g === 1 && b === 1) await refundOrder(tx, placed.order.orderid, 10000, '未完成的一次咨询', 'I0001', at);
  }
}
