import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PlanAuthorizeDetailRow } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { addDays, iso, offsetOf, paged, todayIn } from '../../kit/index.js';
import { streamXlsx, XLSX_TYPE } from '../../kit/xlsx.js';
import { accountNames, isRegionAuthority, statsAccounts } from '../accounts/index.js';
import { appNameOf } from '../apps/index.js';
import { assertInScope, scopeWhere } from '../auth/index.js';
import { findPlan } from './access.js';
import { plan, planAuthorize } from './tables.js';

/**
 * The data reports of plan authorisations (/Datastatistics 00052 detail, 00053 statistics): the
 * authorisations the caller's scope granted (owns the plan) or received, with what is used and
 * left. "Expiring" is active and ending within EXPIRING_DAYS of the server's today.
 */

export const EXPIRING_DAYS = 30;
type Status = 'pending' | 'active' | 'expired' | 'expiring';
interface AuthorizeFilter {
  musercode?: string;
  plancode?: string;
  status?: Status | '';
}

const remaining = sql<number>`greatest(${planAuthorize.count} - ${planAuthorize.usedcount}, 0)`.mapWith(Number);

function statusWhere(status: Status, today: string): SQL {
  const active = and(lte(planAuthorize.startdate, today), gte(planAuthorize.enddate, today))!;
  if (status === 'pending') return gt(planAuthorize.startdate, today);
  if (status === 'expired') return lt(planAuthorize.enddate, today);
  if (status === 'expiring') return and(active, lte(planAuthorize.enddate, addDays(today, EXPIRING_DAYS)))!;
  return active;
}

/**
 * The institutions whose received authorisations an education bureau oversees (the schools of
 * its district, as its statistics); undefined for every other caller.
 */
async function overseen(ctx: Ctx): Promise<string[] | undefined> {
  if (!(await isRegionAuthority(ctx))) return undefined;
  return (await statsAccounts(ctx, {})).list.map((a) => a.musercode);
}

async function authorizeWhere(ctx: Ctx, f: AuthorizeFilter, today: string): Promise<SQL> {
  const schools = await overseen(ctx);
  if (f.musercode && !schools?.includes(f.musercode)) assertInScope(ctx.me, f.musercode);
  if (f.plancode && !schools) await findPlan(ctx, ctx.db, f.plancode, false);
  return and(
    or(
      scopeWhere(plan.musercode, ctx.me),
      scopeWhere(planAuthorize.musercode, ctx.me),
      schools?.length ? inArray(planAuthorize.musercode, schools) : undefined,
    ),
    f.musercode ? eq(planAuthorize.musercode, f.musercode) : undefined,
    f.plancode ? eq(planAuthorize.plancode, f.plancode) : undefined,
    f.status ? statusWhere(f.status, today) : undefined,
  )!;
}

const detailQuery = (ctx: Ctx, where: SQL) =>
  ctx.db
    .select({ grant: planAuthorize, planname: plan.planname, appid: plan.appid, appname: appNameOf(plan.appid, ctx.lang) })
    .from(planAuthorize)
    .innerJoin(plan, eq(plan.plancode, planAuthorize.plancode))
    .where(where)
    .$dynamic();
const detailOrder = [desc(planAuthorize.createdat), asc(planAuthorize.authid)];

type DetailRecord = Awaited<ReturnType<ReturnType<typeof detailQuery>['execute']>>[number];

async function detailRows(ctx: Ctx, records: DetailRecord[], today: string): Promise<PlanAuthorizeDetailRow[]> {
  const names = await accountNames(
    ctx.db,
    records.map((r) => r.grant.musercode),
  );
  const soon = addDays(today, EXPIRING_DAYS);
  return records.map(({ grant: g, planname, appid, appname }) => {
    const status = today < g.startdate ? 'pending' : today > g.enddate ? 'expired' : 'active';
    return {
      authid: g.authid,
      plancode: g.plancode,
      planname,
      musercode: g.musercode,
      insname: names.get(g.musercode) ?? '',
      count: g.count,
      usedcount: g.usedcount,
      remaining: Math.max(g.count - g.usedcount, 0),
      startdate: g.startdate,
      enddate: g.enddate,
      status,
      expiring: status === 'active' && g.enddate <= soon,
      appid,
      appname,
      createdat: iso(g.createdat),
    };
  });
}

const STATUS_TEXT = {
  pending: { zh: '未开始', en: 'Pending' },
  active: { zh: '生效中', en: 'Active' },
  expired: { zh: '已过期', en: 'Expired' },
} as const;

export const planAuthorizeReportHandlers = {
  'as.m.hospital.statistic.getPlanAuthorizeDetails': async ({ page, pageSize, ...f }, ctx) => {
    const today = todayIn(ctx.now());
    const { total, rows } = await paged(ctx.db, detailQuery(ctx, await authorizeWhere(ctx, f, today)), detailOrder, { page, pageSize });
    return { total, rows: await detailRows(ctx, rows, today) };
  },

  'as.m.hospital.statistic.getPlanAuthorizeCount': async (f, ctx) => {
    const today = todayIn(ctx.now());
    const where = await authorizeWhere(ctx, f, today);
    const n = (status: Status) => sql<number>`count(*) filter (where ${statusWhere(status, today)})::int`.mapWith(Number);
    const sum = (v: SQL | AnyPgColumn) => sql<number>`coalesce(sum(${v}), 0)::int`.mapWith(Number);
    const [totals] = await ctx.db
      .select({
        authorizations: sql<number>`count(*)::int`.mapWith(Number),
        pending: n('pending'),
        active: n('active'),
        expiring: n('expiring'),
        expired: n('expired'),
        count: sum(planAuthorize.count),
        used: sum(planAuthorize.usedcount),
        remaining: sum(remaining),
      })
      .from(planAuthorize)
      .innerJoin(plan, eq(plan.plancode, planAuthorize.plancode))
      .where(where);
    const perInstitution = await ctx.db
      .select({
        musercode: planAuthorize.musercode,
        count: sum(planAuthorize.count),
        used: sum(planAuthorize.usedcount),
        remaining: sum(remaining),
      })
      .from(planAuthorize)
      .innerJoin(plan, eq(plan.plancode, planAuthorize.plancode))
      .where(where)
      .groupBy(planAuthorize.musercode)
      .orderBy(desc(sum(planAuthorize.count)), asc(planAuthorize.musercode))
      .limit(200);
    const names = await accountNames(
      ctx.db,
      perInstitution.map((r) => r.musercode),
    );
    return { ...totals!, institutions: perInstitution.map((r) => ({ ...r, insname: names.get(r.musercode) ?? '' })) };
  },

  'as.m.hospital.statistic.exportPlanAuthorizeDetails': async (f, ctx) => {
    const today = todayIn(ctx.now());
    const where = await authorizeWhere(ctx, f, today);
    const en = ctx.lang === 'en-US';
    const header = en
      ? ['Plan', 'Population', 'Institution', 'Authorised', 'Used', 'Remaining', 'Start', 'End', 'Status', 'Expiring', 'Authorised at']
      : ['计划', '人群', '机构', '授权次数', '已用', '剩余', '开始日期', '结束日期', '状态', '即将到期', '授权时间'];
    await ctx.audit({ result: 'ok', detail: { ...f } });
    const body = streamXlsx(en ? 'Plan authorisations' : '计划授权明细', header, async (add) => {
      for (let page = 1; ; page++) {
        const records = await detailQuery(ctx, where)
          .orderBy(...detailOrder)
          .limit(500)
          .offset(offsetOf({ page, pageSize: 500 }));
        const rows = await detailRows(ctx, records, today);
        await add(
          rows.map((r) => [
            r.planname,
            r.appname,
            r.insname,
            r.count,
            r.usedcount,
            r.remaining,
            r.startdate,
            r.enddate,
            STATUS_TEXT[r.status][en ? 'en' : 'zh'],
            r.expiring ? (en ? 'Yes' : '是') : '',
            r.createdat,
          ]),
        );
        if (records.length < 500) break;
      }
    });
    return { filename: en ? 'plan-authorisations.xlsx' : '计划授权明细.xlsx', contentType: XLSX_TYPE, body };
  },
} satisfies HandlerMap;
