import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import type { Ctx } from '../../http/context.js';
import type { DbOrTx } from '../../db/database.js';
import { conflict, fail, invalid } from '../../http/errors.js';
import { accountNames, accountInScope, ownerAccount } from '../accounts/index.js';
import { addApps, appNameOf, appSortOf, assertCanGiveApps } from '../apps/index.js';
import { assertInScope, scopeWhere } from '../auth/index.js';
import { contains, countRows, iso, newId, paged } from '../../kit/index.js';
import { assertFormsReadable, formBriefs, readableFormBriefs } from '../scales/index.js';
import { categoryNameIn, editable, findStage, stageReadable } from './access.js';
import { examCategory, examStage, examStageForm, muserStage, planStage } from './tables.js';

async function assertCategory(db: DbOrTx, appid: string, categoryid: string) {
  const [c] = await db.select().from(examCategory).where(eq(examCategory.categoryid, categoryid));
  if (!c || c.appid !== appid) invalid({ zh: `类别 ${categoryid} 不属于应用 ${appid}`, en: `Category ${categoryid} is not a category of app ${appid}` });
}

/** Replaces a stage's forms, keeping the given order. */
async function setStageForms(tx: DbOrTx, stagecode: string, formcodes: string[]) {
  await tx.delete(examStageForm).where(eq(examStageForm.stagecode, stagecode));
  const unique = [...new Set(formcodes)];
  if (unique.length) await tx.insert(examStageForm).values(unique.map((formcode, sort) => ({ stagecode, formcode, sort })));
}

/** The forms of a stage in order, as brief rows. */
export async function stageForms(ctx: Ctx, db: DbOrTx, stagecode: string) {
  const links = await db.select().from(examStageForm).where(eq(examStageForm.stagecode, stagecode)).orderBy(asc(examStageForm.sort));
  const briefs = await formBriefs(db, links.map((l) => l.formcode), ctx.lang);
  return links.map((l) => ({ ...briefs.get(l.formcode)!, sort: l.sort }));
}

export const stageHandlers = {
  'as.m.app.getExamCategoryList': async ({ appid }, ctx) =>
    ctx.db
      .select({ categoryid: examCategory.categoryid, appid: examCategory.appid, categoryname: categoryNameIn(ctx.lang), sort: examCategory.sort })
      .from(examCategory)
      .where(appid ? eq(examCategory.appid, appid) : undefined)
      .orderBy(asc(examCategory.sort)),

  'as.m.app.exam.getExamStageList': async ({ appid, categoryid, stagename, musercode, page, pageSize }, ctx) => {
    if (musercode) assertInScope(ctx.me, musercode);
    const where = and(
      stageReadable(ctx.db, ctx.me),
      appid ? eq(examStage.appid, appid) : undefined,
      categoryid ? eq(examStage.categoryid, categoryid) : undefined,
      contains(examStage.stagename, stagename),
      musercode ? eq(examStage.musercode, musercode) : undefined,
    );
    const query = ctx.db
      .select({
        stagecode: examStage.stagecode,
        stagename: examStage.stagename,
        appid: examStage.appid,
        appname: appNameOf(examStage.appid, ctx.lang),
        categoryid: examStage.categoryid,
        categoryname: categoryNameIn(ctx.lang),
        musercode: examStage.musercode,
        description: examStage.description,
        sort: examStage.sort,
        formcount: sql<number>`(select count(*)::int from exam_stage_form esf where esf.stagecode = exam_stage.stagecode)`,
        createdat: examStage.createdat,
      })
      .from(examStage)
      .innerJoin(examCategory, eq(examCategory.categoryid, examStage.categoryid))
      .where(where)
      .$dynamic();
    const { total, rows } = await paged(ctx.db, query, [asc(appSortOf(examStage.appid)), asc(examCategory.sort), asc(examStage.sort), asc(examStage.stagecode)], { page, pageSize });
    const names = await accountNames(ctx.db, rows.map((r) => r.musercode));
    return { total, rows: rows.map((r) => ({ ...r, insname: names.get(r.musercode) ?? '', formcount: Number(r.formcount), editable: editable(ctx.me, r.musercode), createdat: iso(r.createdat) })) };
  },

  'as.m.app.exam.getExamStageListGroupByAppidCategoryid': async ({ appid }, ctx) => {
    const rows = await ctx.db
      .select({
        appid: examStage.appid,
        appname: appNameOf(examStage.appid, ctx.lang),
        categoryid: examStage.categoryid,
        categoryname: categoryNameIn(ctx.lang),
        stagecode: examStage.stagecode,
        stagename: examStage.stagename,
        sort: examStage.sort,
      })
      .from(examStage)
      .innerJoin(examCategory, eq(examCategory.categoryid, examStage.categoryid))
      .where(and(stageReadable(ctx.db, ctx.me), appid ? eq(examStage.appid, appid) : undefined))
      .orderBy(asc(appSortOf(examStage.appid)), asc(examCategory.sort), asc(examStage.sort), asc(examStage.stagecode));
    const groups = new Map<string, { appid: string; appname: string; categoryid: string; categoryname: string; stages: { stagecode: string; stagename: string; sort: number }[] }>();
    for (const r of rows) {
      const key = `${r.appid}/${r.categoryid}`;
      if (!groups.has(key)) groups.set(key, { appid: r.appid, appname: r.appname, categoryid: r.categoryid, categoryname: r.categoryname, stages: [] });
      groups.get(key)!.stages.push({ stagecode: r.stagecode, stagename: r.stagename, sort: r.sort });
    }
    return [...groups.values()];
  },

  'as.m.app.exam.insertExamStage': async ({ musercode, appid, categoryid, stagename, description, sort, formcodes }, ctx) => {
    const owner = (await ownerAccount(ctx, ctx.db, musercode)).musercode;
    await assertCategory(ctx.db, appid, categoryid);
    await assertFormsReadable(ctx.db, ctx.me, formcodes ?? []);
    const stagecode = newId('ST');
    const now = ctx.now();
    await ctx.db.transaction(async (tx) => {
      await tx.insert(examStage).values({ stagecode, musercode: owner, appid, categoryid, stagename, description: description ?? '', sort: sort ?? 0, createdat: now, updatedat: now });
      await setStageForms(tx, stagecode, formcodes ?? []);
    });
    await ctx.audit({ result: 'ok', detail: { stagecode, owner } });
    return { stagecode };
  },

  'as.m.app.exam.updateExamStage': async ({ stagecode, stagename, categoryid, description, sort }, ctx) => {
    const stage = await findStage(ctx, ctx.db, stagecode, true);
    if (categoryid) await assertCategory(ctx.db, stage.appid, categoryid);
    await ctx.db
      .update(examStage)
      .set({ stagename: stagename ?? stage.stagename, categoryid: categoryid ?? stage.categoryid, description: description ?? stage.description, sort: sort ?? stage.sort, updatedat: ctx.now() })
      .where(eq(examStage.stagecode, stagecode));
    await ctx.audit({ result: 'ok', detail: { stagecode } });
    return null;
  },

  'as.m.app.exam.deleteExamStage': async ({ stagecode }, ctx) => {
    await findStage(ctx, ctx.db, stagecode, true);
    if ((await countRows(ctx.db, planStage, eq(planStage.stagecode, stagecode))) > 0) conflict({ zh: '该阶段已被测评计划使用，不能删除', en: 'A plan uses this stage: it cannot be deleted' });
    await ctx.db.delete(examStage).where(eq(examStage.stagecode, stagecode));
    await ctx.audit({ result: 'ok', detail: { stagecode } });
    return null;
  },

  'as.m.app.exam.getExamStageForms': async ({ stagecode }, ctx) => {
    await findStage(ctx, ctx.db, stagecode, false);
    return stageForms(ctx, ctx.db, stagecode);
  },

  'as.m.app.exam.updateExamStageForms': async ({ stagecode, formcodes }, ctx) => {
    await findStage(ctx, ctx.db, stagecode, true);
    await assertFormsReadable(ctx.db, ctx.me, formcodes);
    await ctx.db.transaction((tx) => setStageForms(tx, stagecode, formcodes));
    await ctx.audit({ result: 'ok', detail: { stagecode, formcodes } });
    return null;
  },

  'as.m.app.exam.deleteExamStageForms': async ({ stagecode, formcodes }, ctx) => {
    await findStage(ctx, ctx.db, stagecode, true);
    await assertFormsReadable(ctx.db, ctx.me, formcodes);
    await ctx.db.delete(examStageForm).where(and(eq(examStageForm.stagecode, stagecode), inArray(examStageForm.formcode, formcodes)));
    await ctx.audit({ result: 'ok', detail: { stagecode, formcodes } });
    return null;
  },

  'as.m.muser.addAppsAndStages': async ({ musercode, appids, stagecodes }, ctx) => {
    const me = ctx.me;
    await accountInScope(ctx, ctx.db, musercode);
    if (musercode === me.musercode) fail('permissionDenied', { zh: '不能给自己的账号分配应用和阶段', en: 'You cannot give apps and stages to your own account' });
    await assertCanGiveApps(ctx, appids);
    const stages = [...new Set(stagecodes)];
    if (stages.length) {
      // Only stages the caller's scope owns can be handed on.
      const owned = await ctx.db.select({ stagecode: examStage.stagecode }).from(examStage).where(and(inArray(examStage.stagecode, stages), scopeWhere(examStage.musercode, me)));
      if (owned.length !== stages.length) fail('notFound', { zh: '阶段不存在', en: 'No such stage' });
    }
    // The account's app list belongs to the apps domain; this action only ever adds to it.
    await ctx.db.transaction(async (tx) => {
      await addApps(tx, musercode, appids);
      if (stages.length) await tx.insert(muserStage).values(stages.map((stagecode) => ({ musercode, stagecode }))).onConflictDoNothing();
    });
    await ctx.audit({ result: 'ok', detail: { target: musercode, appids, stagecodes: stages } });
    return null;
  },

  'as.m.exam.getExamForms': async ({ stagecode, appid }, ctx) => {
    if (stagecode) {
      await findStage(ctx, ctx.db, stagecode, false);
      return (await stageForms(ctx, ctx.db, stagecode)).filter((f) => f.enabled === 1).map(({ sort: _sort, ...f }) => f);
    }
    return readableFormBriefs(ctx.db, ctx.me, ctx.lang, { appid });
  },
} satisfies HandlerMap;
