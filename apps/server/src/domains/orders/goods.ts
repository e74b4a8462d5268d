import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { GoodsRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { contains, iso, newId, paged, todayIn } from '../../kit/index.js';
import { accountNames, ownedBy, ownerAccount } from '../accounts/index.js';
import { scopeWhere } from '../auth/index.js';
import { coursesOfInstitution } from '../content/index.js';
import { fileUrls, noSuchFile, setFileUses, usableFiles } from '../files/index.js';
import { assertPlanHasItemText, usablePlans } from '../plans/index.js';
import { grantNames } from './fulfil.js';
import { goods, shopOrder } from './tables.js';

type GoodsRecord = typeof goods.$inferSelect;

export const noSuchGoods = () => notFound({ zh: '商品不存在', en: 'No such goods' });

/** The course or plan goods grant. */
export const grantRef = (r: GoodsRecord) => ({
  musercode: r.musercode,
  kind: r.grantkind,
  ref: r.grantkind === 'course' ? r.grantcourseid : r.grantplancode,
});

async function goodsOut(db: DbOrTx, rows: GoodsRecord[]): Promise<GoodsRow[]> {
  const ids = rows.map((r) => r.goodsid);
  const [names, covers, sold, granted] = await Promise.all([
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    fileUrls(
      db,
      rows.map((r) => r.coverfileid),
    ),
    ids.length
      ? db
          .select({ goodsid: shopOrder.goodsid, n: sql<number>`coalesce(sum(${shopOrder.quantity}), 0)::int` })
          .from(shopOrder)
          .where(and(inArray(shopOrder.goodsid, ids), inArray(shopOrder.status, [3, 10, 11])))
          .groupBy(shopOrder.goodsid)
      : [],
    grantNames(db, rows.map(grantRef)),
  ]);
  const soldBy = new Map(sold.map((s) => [s.goodsid, Number(s.n)]));
  return rows.map((r) => ({
    goodsid: r.goodsid,
    musercode: r.musercode,
    insname: names.get(r.musercode) ?? '',
    goodsname: r.goodsname,
    coverfileid: r.coverfileid ?? '',
    coverurl: r.coverfileid ? (covers.get(r.coverfileid) ?? '') : '',
    description: r.description,
    price: r.price,
    stock: r.stock,
    status: r.status as GoodsRow['status'],
    grantkind: r.grantkind as GoodsRow['grantkind'],
    grantcourseid: r.grantcourseid ?? '',
    grantplancode: r.grantplancode ?? '',
    grantname: granted.get(grantRef(r).ref ?? '') ?? '',
    sold: soldBy.get(r.goodsid) ?? 0,
    createdat: iso(r.createdat),
  }));
}

export async function goodsInScope(ctx: Ctx, goodsid: string): Promise<GoodsRecord> {
  const [row] = await ctx.db
    .select()
    .from(goods)
    .where(and(eq(goods.goodsid, goodsid), scopeWhere(goods.musercode, ctx.me)));
  return row ?? noSuchGoods();
}

async function checkCover(db: DbOrTx, musercode: string, coverfileid: string) {
  if (!coverfileid) return;
  const { bad, missing } = await usableFiles(db, musercode, [{ fileid: coverfileid, use: 'image' }]);
  if (missing) noSuchFile();
  if (bad) invalid({ zh: '封面须为本机构已上传的图片', en: 'The cover must be a picture uploaded by the institution' });
}

type GrantInput = { grantkind: 'none' | 'course' | 'plan'; grantcourseid: string; grantplancode: string };

/**
 * The course or plan goods grant must be the institution's own course, or a plan it may give
 * today (its own, or one authorised to it). Any course or plan named is checked, whichever kind
 * is chosen: another institution's is "not found". Answers the columns to store (only the
 * reference of the chosen kind).
 */
async function checkGrant(db: DbOrTx, musercode: string, g: GrantInput, today: string) {
  if (g.grantcourseid && !(await coursesOfInstitution(db, musercode, [g.grantcourseid])).length)
    notFound({ zh: '课程不存在', en: 'No such course' });
  if (g.grantplancode && !(await usablePlans(db, musercode, today, g.grantplancode)).length)
    notFound({ zh: '计划不存在，或未授权给本机构', en: 'No such plan, or it is not authorised to this institution' });
  if (g.grantkind === 'course' && !g.grantcourseid) invalid({ zh: '请选择购买后开通的课程', en: 'Choose the course a purchase unlocks' });
  if (g.grantkind === 'plan' && !g.grantplancode)
    invalid({ zh: '请选择购买后发放的测评计划', en: 'Choose the plan a purchase gives an assessment of' });
  // A buyer would pay for forms nobody may answer (the code is refused at payment).
  if (g.grantkind === 'plan') await assertPlanHasItemText(db, g.grantplancode);
  return {
    grantkind: g.grantkind,
    grantcourseid: g.grantkind === 'course' ? g.grantcourseid : null,
    grantplancode: g.grantkind === 'plan' ? g.grantplancode : null,
  };
}

/** Goods of an institution: the list, adding and changing them, what they may grant, their listing, deleting them. */
export const goodsHandlers = {
  'as.m.goods.getGoodsPage': async ({ musercode, goodsname, status, page, pageSize }, ctx) => {
    const where = and(
      ownedBy(ctx, goods.musercode, musercode),
      contains(goods.goodsname, goodsname),
      status === undefined ? undefined : eq(goods.status, status),
    );
    const { total, rows } = await paged(
      ctx.db,
      ctx.db.select().from(goods).where(where).$dynamic(),
      [desc(goods.createdat), asc(goods.goodsid)],
      { page, pageSize },
    );
    return { total, rows: await goodsOut(ctx.db, rows) };
  },

  'as.m.goods.insertGoods': async ({ musercode, grantkind, grantcourseid, grantplancode, ...g }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    await checkCover(ctx.db, owner.musercode, g.coverfileid);
    const grant = await checkGrant(ctx.db, owner.musercode, { grantkind, grantcourseid, grantplancode }, todayIn(ctx.now()));
    const goodsid = newId('GD');
    await ctx.db.transaction(async (tx) => {
      await tx.insert(goods).values({
        ...g,
        ...grant,
        goodsid,
        musercode: owner.musercode,
        coverfileid: g.coverfileid || null,
        status: 0,
        createdat: ctx.now(),
        updatedat: ctx.now(),
      });
      await setFileUses(tx, 'goods', goodsid, g.coverfileid ? [g.coverfileid] : []);
    });
    await ctx.audit({ result: 'ok', detail: { goodsid, target: owner.musercode } });
    return { goodsid };
  },

  'as.m.goods.updateGoods': async ({ goodsid, grantkind, grantcourseid, grantplancode, ...g }, ctx) => {
    const row = await goodsInScope(ctx, goodsid);
    await checkCover(ctx.db, row.musercode, g.coverfileid);
    const grant = await checkGrant(ctx.db, row.musercode, { grantkind, grantcourseid, grantplancode }, todayIn(ctx.now()));
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(goods)
        .set({ ...g, ...grant, coverfileid: g.coverfileid || null, updatedat: ctx.now() })
        .where(eq(goods.goodsid, goodsid));
      await setFileUses(tx, 'goods', goodsid, g.coverfileid ? [g.coverfileid] : []);
    });
    await ctx.audit({ result: 'ok', detail: { goodsid } });
    return null;
  },

  'as.m.goods.getGrantOptions': async ({ musercode }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const [courses, plans] = await Promise.all([
      coursesOfInstitution(ctx.db, owner.musercode),
      usablePlans(ctx.db, owner.musercode, todayIn(ctx.now())),
    ]);
    return { courses, plans };
  },

  'as.m.goods.setGoodsStatus': async ({ goodsid, status }, ctx) => {
    await goodsInScope(ctx, goodsid);
    await ctx.db.update(goods).set({ status, updatedat: ctx.now() }).where(eq(goods.goodsid, goodsid));
    await ctx.audit({ result: 'ok', detail: { goodsid, status } });
    return null;
  },

  'as.m.goods.deleteGoods': async ({ goodsid }, ctx) => {
    await goodsInScope(ctx, goodsid);
    const [used] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(shopOrder)
      .where(eq(shopOrder.goodsid, goodsid));
    const hasOrders = () =>
      conflict({ zh: '该商品已有订单，不能删除，请改为下架', en: 'These goods have orders and cannot be deleted; delist them instead' });
    if (Number(used!.n)) hasOrders();
    try {
      await ctx.db.transaction(async (tx) => {
        await setFileUses(tx, 'goods', goodsid, []);
        await tx.delete(goods).where(eq(goods.goodsid, goodsid));
      });
    } catch (err) {
      if ((err as { cause?: { code?: string } })?.cause?.code === '23503' || (err as { code?: string })?.code === '23503') hasOrders();
      throw err;
    }
    await ctx.audit({ result: 'ok', detail: { goodsid } });
    return null;
  },
} satisfies HandlerMap;
