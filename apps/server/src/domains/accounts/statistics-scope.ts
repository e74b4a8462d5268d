import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { containsPattern, type Bindable } from '../../kit/index.js';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { scopeWhere } from '../auth/index.js';
import { muser } from './tables.js';

/**
 * The login-as marker of an education bureau (教育局, SPEC §2/§6: it lands on statistics). A
 * bureau oversees the schools of its region without owning them, so its statistics — aggregates
 * only, never a person — cover the schools (type 001) of its own region as well as its scope.
 * Report lists and every other action keep the ordinary scope.
 */
export const REGION_AUTHORITY_MARKER = 'JYJ';
const SCHOOL = '001';

export interface StatsAccount {
  musercode: string;
  insname: string;
  musertype: string;
}

export interface StatsInstitutionFilter {
  musercode?: string;
  provincecode?: string;
  citycode?: string;
  districtcode?: string;
  /** Part of the name (the statistics picker's search). */
  insname?: string;
}

/** The most specific region code of an account, as a condition on muser; undefined when it has none. */
function withinRegionOf(a: { provincecode: string; citycode: string; districtcode: string }): SQL | undefined {
  if (a.districtcode) return eq(muser.districtcode, a.districtcode);
  if (a.citycode) return eq(muser.citycode, a.citycode);
  if (a.provincecode) return eq(muser.provincecode, a.provincecode);
  return undefined;
}

/** Accounts of a region (each code given must match), as a condition on an account column; undefined without codes. */
export function accountInRegion(column: AnyPgColumn, f: { [K in 'provincecode' | 'citycode' | 'districtcode']?: Bindable<string> }): SQL | undefined {
  const region = and(
    f.provincecode ? eq(muser.provincecode, f.provincecode) : undefined,
    f.citycode ? eq(muser.citycode, f.citycode) : undefined,
    f.districtcode ? eq(muser.districtcode, f.districtcode) : undefined,
  );
  return region ? sql`${column} in (select ${muser.musercode} from ${muser} where ${region})` : undefined;
}

/** The region a caller oversees as an education bureau (a condition on muser), else undefined. */
async function authorityRegion(ctx: Ctx): Promise<SQL | undefined> {
  if (ctx.me.scope === 'all') return undefined;
  const [own] = await ctx.db
    .select({ marker: muser.loginasmarker, provincecode: muser.provincecode, citycode: muser.citycode, districtcode: muser.districtcode })
    .from(muser)
    .where(eq(muser.musercode, ctx.me.musercode));
  return own?.marker === REGION_AUTHORITY_MARKER ? withinRegionOf(own) : undefined;
}

/**
 * Whether the caller is an education bureau with a region: it oversees schools it does not own,
 * so it sees their totals (statistics, case and authorisation summaries), never their persons.
 */
export async function isRegionAuthority(ctx: Ctx): Promise<boolean> {
  return !!(await authorityRegion(ctx));
}

/**
 * The accounts (institutions and providers) whose figures a caller's statistics cover under the
 * institution and region filter. `all` is true when that is every account (the super account
 * without a filter), so queries need no list of thousands of codes. A named institution outside
 * the caller's statistics is "not found".
 */
export async function statsAccounts(ctx: Ctx, f: StatsInstitutionFilter, limit?: number): Promise<{ all: boolean; list: StatsAccount[] }> {
  const me = ctx.me;
  let covered = scopeWhere(muser.musercode, me);
  const region = await authorityRegion(ctx);
  if (region) covered = or(covered, and(eq(muser.musertype, SCHOOL), region))!;
  const query = ctx.db
    .select({ musercode: muser.musercode, insname: muser.insname, musertype: muser.musertype })
    .from(muser)
    .where(
      and(
        covered,
        f.musercode ? eq(muser.musercode, f.musercode) : undefined,
        f.provincecode ? eq(muser.provincecode, f.provincecode) : undefined,
        f.citycode ? eq(muser.citycode, f.citycode) : undefined,
        f.districtcode ? eq(muser.districtcode, f.districtcode) : undefined,
        f.insname ? sql`${muser.insname} ilike ${containsPattern(f.insname)}` : undefined,
      ),
    )
    .orderBy(muser.musercode)
    .$dynamic();
  const list = await (limit ? query.limit(limit) : query);
  if (f.musercode && !list.length) notFound();
  const filtered = !!(f.musercode || f.insname || f.provincecode || f.citycode || f.districtcode);
  return { all: me.scope === 'all' && !filtered, list };
}
