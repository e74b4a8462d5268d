import { and, asc, desc, eq, ne, or, type SQL } from 'drizzle-orm';
import type { ActionParsedInput, MUserRow } from '@xinli/contract';
import type { Caller, Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, denied, fail, invalid } from '../../http/errors.js';
import { contains, iso, maskPhone, newId, paged } from '../../kit/index.js';
import { accountInScope, type AccountRow } from './owner.js';
import { accountPhoneColumn } from './contact.js';
import { open } from '../../kit/crypt/index.js';
import {
  enrolledSubjects,
  secondFactorWhere,
  hashPassword,
  md5Upper,
  revokeAccountSessions,
  assertHoldsAccount,
  scopeWhere,
  subjectOf,
} from '../auth/index.js';
import { staffCount } from '../system/index.js';
import { accountPlanCount } from '../plans/index.js';
import { accountResultCount } from '../assessments/index.js';
import { accountPersonCount } from '../persons/index.js';
import { accountNames } from './accounts.js';
import { categoryTree, checkCategoryPath, type CategoryPath } from './categories.js';
import { ensureEntry, isInstitution } from './entry.js';
import { checkRegion, regionChildren } from './regions.js';
import { muser } from './tables.js';

/**
 * Institutions (terminal, 00021) and providers (usersManager, 00022) of SPEC §2 /Service.
 * A provider manages the institutions under it (parentcode); the super account manages all.
 */

const INSTITUTION_TYPES = ['001', '002', '003', '004'];

/** The types a caller may create: the super account any, a provider institutions, an institution none. */
export function creatableTypes(me: Caller): string[] {
  if (me.issuper) return [...INSTITUTION_TYPES, '005'];
  if (me.musertype === '005') return INSTITUTION_TYPES;
  return [];
}

/** An account the caller manages: in scope, existing, and not the caller's own (nobody disables or deletes itself). */
export async function managedAccount(ctx: Ctx, musercode: string): Promise<AccountRow> {
  const account = await accountInScope(ctx, ctx.db, musercode);
  if (musercode === ctx.me.musercode) {
    denied({ zh: '不能对自己的账号执行此操作', en: 'You cannot do this to your own account' });
  }
  if (account.issuper) denied();
  return account;
}

type ListFilters = Omit<ActionParsedInput<'as.m.user.getMUserPageList'>, 'page' | 'pageSize'>;

/** The where clause of the list and its export: the caller's scope, never the platform account, then the filters. */
export function listWhere(ctx: Ctx, f: ListFilters): SQL | undefined {
  if (f.parentcode) assertParentInScope(ctx.me, f.parentcode);
  return and(
    scopeWhere(muser.musercode, ctx.me),
    eq(muser.issuper, false),
    f.kind === 'institution' ? ne(muser.musertype, '005') : f.kind === 'provider' ? eq(muser.musertype, '005') : undefined,
    contains(muser.insname, f.insname),
    contains(muser.username, f.username),
    f.musertype ? eq(muser.musertype, f.musertype) : undefined,
    f.provincecode ? eq(muser.provincecode, f.provincecode) : undefined,
    f.citycode ? eq(muser.citycode, f.citycode) : undefined,
    f.districtcode ? eq(muser.districtcode, f.districtcode) : undefined,
    f.categorycode ? categoryAnyLevel(f.categorycode) : undefined,
    f.enabled === 0 || f.enabled === 1 ? eq(muser.enabled, f.enabled) : undefined,
    f.parentcode ? eq(muser.parentcode, f.parentcode) : undefined,
    f.secondfactor === 0 || f.secondfactor === 1 ? secondFactorWhere({ musercode: muser.musercode }, f.secondfactor) : undefined,
  );
}

function assertParentInScope(me: Caller, parentcode: string) {
  if (me.scope !== 'all' && !me.scope.includes(parentcode)) fail('notFound');
}

const categoryAnyLevel = (code: string) =>
  or(
    eq(muser.categorycode0, code),
    eq(muser.categorycode1, code),
    eq(muser.categorycode2, code),
    eq(muser.categorycode3, code),
    eq(muser.categorycode4, code),
    eq(muser.categorycode5, code),
  );

type MUserRecord = typeof muser.$inferSelect;

/** An account as the wire shows it; its phone is opened here, for the rows of the page only. */
export function toRow(r: MUserRecord, parentname: string, masked: boolean, secondfactor: boolean): MUserRow {
  const phone = open(r.phonenumber) ?? '';
  return {
    musercode: r.musercode,
    username: r.username,
    musertype: r.musertype,
    insname: r.insname,
    realname: r.realname,
    phonenumber: masked ? maskPhone(phone) : phone,
    provincecode: r.provincecode,
    citycode: r.citycode,
    districtcode: r.districtcode,
    regionname: r.regionname,
    categorycode: r.categorycode,
    categorylevel: r.categorylevel,
    categorycode0: r.categorycode0,
    categorycode1: r.categorycode1,
    categorycode2: r.categorycode2,
    categorycode3: r.categorycode3,
    categorycode4: r.categorycode4,
    categorycode5: r.categorycode5,
    parentcode: r.parentcode,
    parentname,
    enabled: r.enabled,
    qrcodeurl: r.qrcodeurl,
    website: r.website,
    secondfactor,
    createdat: iso(r.createdat),
  };
}

/** Rows with their owning provider's name and whether each signs in with a second factor. */
export async function withParents(ctx: Ctx, rows: MUserRecord[], masked: boolean): Promise<MUserRow[]> {
  const subject = (r: MUserRecord) => subjectOf({ musercode: r.musercode, userid: null });
  const [names, enrolled] = await Promise.all([
    accountNames(
      ctx.db,
      rows.flatMap((r) => (r.parentcode ? [r.parentcode] : [])),
    ),
    enrolledSubjects(ctx.db, rows.map(subject)),
  ]);
  return rows.map((r) => toRow(r, r.parentcode ? (names.get(r.parentcode) ?? '') : '', masked, enrolled.has(subject(r))));
}

/** A password the server can still refuse from its MD5: empty, or the account name itself. */
function assertPasswordAcceptable(pwd: string, username: string) {
  if (pwd === md5Upper('') || pwd === md5Upper(username)) {
    invalid({
      zh: '密码格式不正确：密码不能为空，也不能与登录账号相同',
      en: 'Password format incorrect: the password cannot be empty or the same as the account name',
    });
  }
}

/** Who owns a new account: a provider's institutions are its own; the super account may name a provider. */
async function ownerOf(ctx: Ctx, musertype: string, parentcode: string | undefined): Promise<string | null> {
  const me = ctx.me;
  const parent = parentcode ? await accountInScope(ctx, ctx.db, parentcode) : null;
  const allowed = creatableTypes(me);
  if (!allowed.includes(musertype)) {
    if (!allowed.length) denied({ zh: '机构账号不能创建机构或服务商', en: 'An institution cannot create institutions or providers' });
    denied({
      zh: '服务商只能创建机构（类型 001–004），不能创建服务商',
      en: 'A provider can create institutions (types 001–004) only, not providers',
    });
  }
  if (musertype === '005') {
    if (parent) invalid({ zh: '服务商不能隶属于其他账号', en: 'A provider cannot belong to another account' });
    return null;
  }
  if (!parent) return me.issuper ? null : me.musercode;
  if (parent.musertype !== '005' || parent.issuper) invalid({ zh: '所属账号必须是服务商', en: 'The owning account must be a provider' });
  if (!me.issuper && parent.musercode !== me.musercode)
    invalid({ zh: '只能在自己名下创建机构', en: 'You can create institutions under your own account only' });
  return parent.musercode;
}

export const institutionHandlers = {
  'as.m.user.getMUserPageList': async ({ page, pageSize, ...filters }, ctx) => {
    const query = ctx.db.select().from(muser).where(listWhere(ctx, filters)).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(muser.createdat), asc(muser.musercode)], { page, pageSize });
    return { total, rows: await withParents(ctx, rows, true) };
  },

  'as.m.user.getMUser': async ({ musercode }, ctx) => {
    const account = await accountInScope(ctx, ctx.db, musercode);
    const [row] = await ctx.db.select().from(muser).where(eq(muser.musercode, account.musercode));
    await ctx.audit({ result: 'ok', detail: { target: musercode } });
    return (await withParents(ctx, [row!], false))[0]!;
  },

  'as.m.user.addMUser': async ({ username, pwd, musertype, parentcode, provincecode, citycode, districtcode, ...fields }, ctx) => {
    const owner = await ownerOf(ctx, musertype, parentcode);
    const regionname = checkRegion({ provincecode, citycode, districtcode });
    const category = checkCategoryPath(fields);
    assertPasswordAcceptable(pwd, username);
    const musercode = newId('M');
    const now = ctx.now();
    const pwdhash = await hashPassword(pwd);
    await ctx.db.transaction(async (tx) => {
      // The sign-in name's uniqueness (also against staff users, any case) is the signin_name
      // index of migration 0006: a clash aborts this insert and the route answers conflict.
      await tx.insert(muser).values({
        ...fields,
        ...accountPhoneColumn(fields.phonenumber),
        ...category,
        musercode,
        username,
        pwdhash,
        musertype,
        parentcode: owner,
        provincecode,
        citycode,
        districtcode,
        regionname,
        createdat: now,
        updatedat: now,
      });
      if (isInstitution(musertype)) await ensureEntry(tx, ctx.config.publicBaseUrl, { musercode, insname: fields.insname }, now);
    });
    await ctx.audit({ result: 'ok', detail: { target: musercode, username, musertype, parentcode: owner } });
    return { musercode };
  },

  'as.m.user.deleteMUser': async ({ musercode }, ctx) => {
    const account = await managedAccount(ctx, musercode);
    await assertHoldsAccount(ctx, ctx.db, account);
    const owned: [number, string, string][] = [
      [Number(await ctx.db.$count(muser, eq(muser.parentcode, musercode))), '个机构', 'institutions'],
      [await staffCount(ctx.db, musercode), '个用户', 'staff users'],
      [await accountPersonCount(ctx.db, musercode), '名测评对象', 'persons'],
      [await accountPlanCount(ctx.db, musercode), '个测评计划', 'plans'],
      [await accountResultCount(ctx.db, musercode), '份测评报告', 'reports'],
    ];
    const left = owned.filter(([n]) => n > 0);
    if (left.length) {
      conflict({
        zh: `${account.insname} 仍有 ${left.map(([n, zh]) => `${n} ${zh}`).join('、')}，不能删除`,
        en: `${account.insname} still has ${left.map(([n, , en]) => `${n} ${en}`).join(', ')} and cannot be deleted`,
      });
    }
    const now = ctx.now();
    await ctx.db.transaction(async (tx) => {
      await revokeAccountSessions(tx, now, musercode);
      await tx.delete(muser).where(eq(muser.musercode, musercode));
    });
    await ctx.audit({ result: 'ok', detail: { target: musercode, insname: account.insname } });
    return null;
  },

  'as.m.user.updateMUserCategory': async ({ musercode, ...path }, ctx) => {
    await managedAccount(ctx, musercode);
    const category = checkCategoryPath(path);
    await ctx.db
      .update(muser)
      .set({ ...category, updatedat: ctx.now() })
      .where(eq(muser.musercode, musercode));
    await ctx.audit({
      result: 'ok',
      detail: { target: musercode, categorycode: category.categorycode },
    });
    return null;
  },

  'as.m.user.getMUserCategoryTree': async ({ kind }, ctx) => {
    const paths: CategoryPath[] = await ctx.db
      .select({
        categorycode0: muser.categorycode0,
        categorycode1: muser.categorycode1,
        categorycode2: muser.categorycode2,
        categorycode3: muser.categorycode3,
        categorycode4: muser.categorycode4,
        categorycode5: muser.categorycode5,
      })
      .from(muser)
      .where(listWhere(ctx, { kind }));
    return categoryTree(paths);
  },

  /** Disabling ends the account's sessions at once: revoked here, and refused by authentication from the same commit on. */
  'as.m.user.enableMuser': async ({ musercode, enabled }, ctx) => {
    // Only over an account holding no more than the caller (issue 27 §2, auth/takeover.ts).
    await assertHoldsAccount(ctx, ctx.db, await managedAccount(ctx, musercode));
    const now = ctx.now();
    await ctx.db.transaction(async (tx) => {
      await tx.update(muser).set({ enabled, updatedat: now }).where(eq(muser.musercode, musercode));
      if (enabled === 0) await revokeAccountSessions(tx, now, musercode);
    });
    await ctx.audit({ result: 'ok', detail: { target: musercode, enabled } });
    return null;
  },

  'as.m.user.getDistrictList': async ({ parentcode }) => regionChildren(parentcode),
} satisfies HandlerMap;
