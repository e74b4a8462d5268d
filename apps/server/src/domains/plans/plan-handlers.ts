import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import type { Ctx } from '../../http/context.js';
import type { DbOrTx } from '../../db/database.js';
import { conflict, denied, invalid, notFound } from '../../http/errors.js';
import { contains, countRows, iso, newId, paged, pageOfArray, todayIn } from '../../kit/index.js';
import { accountInScope, ownedBy, ownerAccount, accountNames } from '../accounts/index.js';
import { appExists, appNameOf } from '../apps/index.js';
import { assertInScope, inScope, scopeWhere } from '../auth/index.js';
import { assertFormsReadable, formBriefs, loadCurrentDefinitions } from '../scales/index.js';
import { categoryNameIn, editable, findPlan, findStage } from './access.js';
import { examCategory, examStage, examStageForm, plan, planAuthorize, planForm, planStage } from './tables.js';

interface StageInput {
  stagecode: string;
  formcodes?: string[];
}

/**
 * Writes a plan's stages and forms. Every stage must be readable by the caller and of the plan's
 * app; a stage given without forms takes the stage's own; every form must be readable.
 */
async function writePlanItems(ctx: Ctx, tx: DbOrTx, plancode: string, appid: string, stages: StageInput[], loose: string[]) {
  await tx.delete(planStage).where(eq(planStage.plancode, plancode));
  await tx.delete(planForm).where(eq(planForm.plancode, plancode));
  const forms: { stagecode: string; formcode: string }[] = [];
  const seenStages = new Set<string>();
  for (const s of stages) {
    if (seenStages.has(s.stagecode)) continue;
    seenStages.add(s.stagecode);
    const stage = await findStage(ctx, tx, s.stagecode, false);
    if (stage.appid !== appid) invalid({ zh: `阶段 ${stage.stagename} 不属于该计划的应用`, en: `Stage ${stage.stagename} belongs to another app than the plan` });
    const codes = s.formcodes ?? (await tx.select({ formcode: examStageForm.formcode }).from(examStageForm).where(eq(examStageForm.stagecode, s.stagecode)).orderBy(asc(examStageForm.sort))).map((r) => r.formcode);
    await assertFormsReadable(tx, ctx.me, s.formcodes ?? []);
    for (const formcode of new Set(codes)) forms.push({ stagecode: s.stagecode, formcode });
  }
  await assertFormsReadable(tx, ctx.me, loose);
  for (const formcode of new Set(loose)) forms.push({ stagecode: '', formcode });
  const stageList = [...seenStages];
  if (stageList.length) await tx.insert(planStage).values(stageList.map((stagecode, sort) => ({ plancode, stagecode, sort })));
  if (forms.length) await tx.insert(planForm).values(forms.map((f, sort) => ({ plancode, ...f, sort })));
}

const planColumns = (lang: Ctx['lang']) => ({
  plancode: plan.plancode,
  planname: plan.planname,
  appid: plan.appid,
  appname: appNameOf(plan.appid, lang),
  musercode: plan.musercode,
  description: plan.description,
  iscommon: plan.iscommon,
  enabled: plan.enabled,
  stagecount: sql<number>`(select count(*)::int from plan_stage ps where ps.plancode = plan.plancode)`,
  formcount: sql<number>`(select count(*)::int from plan_form pf where pf.plancode = plan.plancode)`,
  createdat: plan.createdat,
  updatedat: plan.updatedat,
});

type PlanSelect = { [K in keyof ReturnType<typeof planColumns>]: unknown } & { musercode: string; createdat: Date; updatedat: Date; iscommon: number; enabled: number };

/** A plan row as the contract has it; `names` gives the owners' institution names (accounts' accountNames). */
function planOut<T extends PlanSelect>(ctx: Ctx, r: T, names: Map<string, string>) {
  return {
    ...r,
    insname: names.get(r.musercode) ?? '',
    iscommon: r.iscommon as 0 | 1,
    enabled: r.enabled as 0 | 1,
    stagecount: Number(r.stagecount),
    formcount: Number(r.formcount),
    editable: editable(ctx.me, r.musercode),
    createdat: iso(r.createdat),
    updatedat: iso(r.updatedat),
  };
}

function selectPlans(ctx: Ctx, where: SQL | undefined) {
  return ctx.db.select(planColumns(ctx.lang)).from(plan).where(where);
}

/** A plan's forms stage by stage (in the plan's stage order), then its loose forms. */
async function planForms(ctx: Ctx, plancode: string) {
  const rows = await ctx.db
    .select({ stagecode: planForm.stagecode, formcode: planForm.formcode, sort: planForm.sort, stagename: examStage.stagename, stagesort: planStage.sort })
    .from(planForm)
    .leftJoin(examStage, eq(examStage.stagecode, planForm.stagecode))
    .leftJoin(planStage, and(eq(planStage.plancode, planForm.plancode), eq(planStage.stagecode, planForm.stagecode)))
    .where(eq(planForm.plancode, plancode))
    .orderBy(sql`coalesce(${planStage.sort}, 1000000)`, asc(planForm.sort));
  const briefs = await formBriefs(ctx.db, rows.map((r) => r.formcode), ctx.lang);
  return rows.map((r) => ({ ...briefs.get(r.formcode)!, stagecode: r.stagecode, stagename: r.stagename ?? '', sort: r.sort }));
}

/** An unknown app id is bad input (the plan's app is a foreign key). */
async function assertApp(ctx: Ctx, appid: string) {
  if (!(await appExists(ctx.db, appid))) invalid({ zh: `应用不存在：${appid}`, en: `No such app: ${appid}` });
}

function authStatus(today: string, startdate: string, enddate: string): 'pending' | 'active' | 'expired' {
  if (today < startdate) return 'pending';
  return today > enddate ? 'expired' : 'active';
}

export const planHandlers = {
  'as.m.exam.plan.insertMUserExamPlan': async ({ musercode, appid, planname, description, iscommon, stages, formcodes }, ctx) => {
    const owner = (await ownerAccount(ctx, ctx.db, musercode)).musercode;
    await assertApp(ctx, appid);
    const plancode = newId('PL');
    const now = ctx.now();
    await ctx.db.transaction(async (tx) => {
      await tx.insert(plan).values({ plancode, musercode: owner, planname, appid, description: description ?? '', iscommon: iscommon ?? 0, createdat: now, updatedat: now });
      await writePlanItems(ctx, tx, plancode, appid, stages, formcodes);
    });
    await ctx.audit({ result: 'ok', detail: { plancode, owner } });
    return { plancode };
  },

  'as.m.exam.plan.getMUserExamPlanPage': async ({ musercode, planname, appid, iscommon, page, pageSize }, ctx) => {
    const where = and(
      ownedBy(ctx, plan.musercode, musercode),
      contains(plan.planname, planname),
      appid ? eq(plan.appid, appid) : undefined,
      iscommon === undefined ? undefined : eq(plan.iscommon, iscommon),
    );
    const { total, rows } = await paged(ctx.db, selectPlans(ctx, where).$dynamic(), [desc(plan.iscommon), desc(plan.createdat), asc(plan.plancode)], { page, pageSize });
    const names = await accountNames(ctx.db, rows.map((r) => r.musercode));
    return { total, rows: rows.map((r) => planOut(ctx, r, names)) };
  },

  'as.m.exam.plan.getMultipleMUserExamPlanPage': async ({ musercodes, planname, appid, page, pageSize }, ctx) => {
    const holders = [...new Set(musercodes)];
    for (const m of holders) assertInScope(ctx.me, m);
    const filters = and(contains(plan.planname, planname), appid ? eq(plan.appid, appid) : undefined);
    const ownRows = await selectPlans(ctx, and(inArray(plan.musercode, holders), filters));
    const granted = await ctx.db
      .select({ ...planColumns(ctx.lang), holder: planAuthorize.musercode, count: planAuthorize.count, usedcount: planAuthorize.usedcount, startdate: planAuthorize.startdate, enddate: planAuthorize.enddate })
      .from(planAuthorize)
      .innerJoin(plan, eq(plan.plancode, planAuthorize.plancode))
      .where(and(inArray(planAuthorize.musercode, holders), filters));
    const names = await accountNames(ctx.db, [...holders, ...granted.map((r) => r.musercode)]);
    const own = ownRows.map((r) => ({
      ...planOut(ctx, r, names),
      holder: r.musercode,
      holdername: names.get(r.musercode) ?? '',
      origin: 'own' as const,
      count: null,
      usedcount: null,
      startdate: null,
      enddate: null,
    }));
    const authorised = granted.map((r) => ({ ...planOut(ctx, r, names), holder: r.holder, holdername: names.get(r.holder) ?? '', origin: 'authorized' as const, count: r.count, usedcount: r.usedcount, startdate: r.startdate, enddate: r.enddate }));
    const all = [...own, ...authorised].sort((a, b) => a.holder.localeCompare(b.holder) || b.iscommon - a.iscommon || b.createdat.localeCompare(a.createdat) || a.plancode.localeCompare(b.plancode));
    return pageOfArray(all, { page, pageSize });
  },

  'as.m.exam.plan.updateMUserExamPlan': async ({ plancode, planname, description, enabled, stages, formcodes }, ctx) => {
    const p = await findPlan(ctx, ctx.db, plancode, true);
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(plan)
        .set({ planname: planname ?? p.planname, description: description ?? p.description, enabled: enabled ?? p.enabled, updatedat: ctx.now() })
        .where(eq(plan.plancode, plancode));
      if (stages !== undefined || formcodes !== undefined) {
        const currentStages = stages ?? (await currentPlanStages(tx, plancode));
        const currentLoose = formcodes ?? (await tx.select({ formcode: planForm.formcode }).from(planForm).where(and(eq(planForm.plancode, plancode), eq(planForm.stagecode, ''))).orderBy(asc(planForm.sort))).map((r) => r.formcode);
        await writePlanItems(ctx, tx, plancode, p.appid, currentStages, currentLoose);
      }
    });
    await ctx.audit({ result: 'ok', detail: { plancode } });
    return null;
  },

  'as.m.exam.plan.deleteMUserExamPlan': async ({ plancode }, ctx) => {
    await findPlan(ctx, ctx.db, plancode, true);
    if ((await countRows(ctx.db, planAuthorize, eq(planAuthorize.plancode, plancode))) > 0) conflict({ zh: '该计划已授权给机构，请先撤销授权', en: 'The plan is authorised to institutions: revoke those first' });
    await ctx.db.delete(plan).where(eq(plan.plancode, plancode));
    await ctx.audit({ result: 'ok', detail: { plancode } });
    return null;
  },

  'as.m.exam.plan.getPlanForm': async ({ plancode }, ctx) => {
    await findPlan(ctx, ctx.db, plancode, false);
    return planForms(ctx, plancode);
  },

  'as.m.exam.plan.getPlanFormDetails': async ({ plancode }, ctx) => {
    await findPlan(ctx, ctx.db, plancode, false);
    const forms = await planForms(ctx, plancode);
    const defs = await loadCurrentDefinitions(ctx.db, forms.map((f) => f.formcode));
    return forms.map((f) => ({ formcode: f.formcode, stagecode: f.stagecode, sort: f.sort, definition: defs.get(f.formcode)! }));
  },

  'as.m.exam.plan.updatePlanIsCommon': async ({ plancode, iscommon }, ctx) => {
    await findPlan(ctx, ctx.db, plancode, true);
    await ctx.db.update(plan).set({ iscommon, updatedat: ctx.now() }).where(eq(plan.plancode, plancode));
    await ctx.audit({ result: 'ok', detail: { plancode, iscommon } });
    return null;
  },

  'as.m.exam.plan.getPlanStage': async ({ plancode }, ctx) => {
    await findPlan(ctx, ctx.db, plancode, false);
    const stages = await ctx.db
      .select({ stagecode: examStage.stagecode, stagename: examStage.stagename, categoryid: examStage.categoryid, categoryname: categoryNameIn(ctx.lang), sort: planStage.sort })
      .from(planStage)
      .innerJoin(examStage, eq(examStage.stagecode, planStage.stagecode))
      .innerJoin(examCategory, eq(examCategory.categoryid, examStage.categoryid))
      .where(eq(planStage.plancode, plancode))
      .orderBy(asc(planStage.sort));
    const forms = await planForms(ctx, plancode);
    return stages.map((s) => ({ ...s, forms: forms.filter((f) => f.stagecode === s.stagecode).map((f) => ({ formcode: f.formcode, formname: f.formname, textless: f.textless })) }));
  },

  'as.m.exam.plan.authorizePlan': async ({ plancode, musercode, count: n, startdate, enddate }, ctx) => {
    const p = await findPlan(ctx, ctx.db, plancode, true);
    await accountInScope(ctx, ctx.db, musercode);
    if (musercode === p.musercode) invalid({ zh: '不能把计划授权给它自己的机构', en: 'A plan cannot be authorised to the institution that owns it' });
    const authid = newId('PA');
    await ctx.db.insert(planAuthorize).values({ authid, plancode, musercode, count: n, startdate, enddate, grantedby: ctx.me.musercode, createdat: ctx.now() });
    await ctx.audit({ result: 'ok', detail: { authid, plancode, musercode, count: n, startdate, enddate } });
    return { authid };
  },

  'as.m.exam.plan.getPlanAuthorizeList': async ({ plancode, musercode, page, pageSize }, ctx) => {
    if (musercode) assertInScope(ctx.me, musercode);
    if (plancode) await findPlan(ctx, ctx.db, plancode, false);
    const where = and(
      or(scopeWhere(plan.musercode, ctx.me), scopeWhere(planAuthorize.musercode, ctx.me)),
      plancode ? eq(planAuthorize.plancode, plancode) : undefined,
      musercode ? eq(planAuthorize.musercode, musercode) : undefined,
    );
    const query = ctx.db
      .select({ grant: planAuthorize, planname: plan.planname })
      .from(planAuthorize)
      .innerJoin(plan, eq(plan.plancode, planAuthorize.plancode))
      .where(where)
      .$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(planAuthorize.createdat), asc(planAuthorize.authid)], { page, pageSize });
    const names = await accountNames(ctx.db, rows.map((r) => r.grant.musercode));
    const today = todayIn(ctx.now());
    return {
      total,
      rows: rows.map(({ grant: g, planname }) => ({
        authid: g.authid,
        plancode: g.plancode,
        planname,
        musercode: g.musercode,
        insname: names.get(g.musercode) ?? '',
        count: g.count,
        usedcount: g.usedcount,
        startdate: g.startdate,
        enddate: g.enddate,
        status: authStatus(today, g.startdate, g.enddate),
        createdat: iso(g.createdat),
      })),
    };
  },

  'as.m.exam.plan.revokePlanAuthorize': async ({ authid }, ctx) => {
    const [row] = await ctx.db
      .select({ owner: plan.musercode, grantee: planAuthorize.musercode, plancode: plan.plancode })
      .from(planAuthorize)
      .innerJoin(plan, eq(plan.plancode, planAuthorize.plancode))
      .where(eq(planAuthorize.authid, authid));
    if (!row || !(inScope(ctx.me, row.owner) || inScope(ctx.me, row.grantee))) return notFound();
    if (!inScope(ctx.me, row.owner)) denied({ zh: '只有计划所属机构可以撤销授权', en: 'Only the institution owning the plan can revoke its authorisation' });
    await ctx.db.delete(planAuthorize).where(eq(planAuthorize.authid, authid));
    await ctx.audit({ result: 'ok', detail: { authid, plancode: row.plancode, grantee: row.grantee } });
    return null;
  },

  'as.m.assess.getFormInfoByPlanCode': async ({ plancode }, ctx) => {
    const p = await findPlan(ctx, ctx.db, plancode, false);
    return { plancode: p.plancode, planname: p.planname, appid: p.appid, forms: await planForms(ctx, plancode) };
  },
} satisfies HandlerMap;

async function currentPlanStages(tx: DbOrTx, plancode: string): Promise<StageInput[]> {
  const stages = await tx.select({ stagecode: planStage.stagecode }).from(planStage).where(eq(planStage.plancode, plancode)).orderBy(asc(planStage.sort));
  const forms = await tx.select().from(planForm).where(eq(planForm.plancode, plancode)).orderBy(asc(planForm.sort));
  return stages.map((s) => ({ stagecode: s.stagecode, formcodes: forms.filter((f) => f.stagecode === s.stagecode).map((f) => f.formcode) }));
}
