import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../http/context.js';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, denied, notFound } from '../../http/errors.js';
import { scopeWhere } from '../auth/index.js';
import { role, roleMenu, sysuserRole } from './tables.js';
import { ADMIN_ROLE_KEY, boundedByCaller, grantableCodes, missingFrom, roleEffectiveCodes } from './common.js';
import { contains, countRows, iso, newId, outerColumn, paged } from '../../kit/index.js';
import { accountColumnsOf, insnameOf, ownedBy, ownerAccount, type AccountRow } from '../accounts/index.js';
import { allMenus, menuTree } from './menus.js';

type RoleRecord = typeof role.$inferSelect & { account: AccountRow };

/** A role in the caller's scope with its institution, else not found. */
export async function findRole(ctx: Ctx, db: DbOrTx, roleid: string): Promise<RoleRecord> {
  const [row] = await db
    .select({ role, account: accountColumnsOf(role.musercode) })
    .from(role)
    .where(and(eq(role.roleid, roleid), scopeWhere(role.musercode, ctx.me)));
  return row ? { ...row.role, account: row.account } : notFound();
}

const roleCodes = async (db: DbOrTx, roleid: string) =>
  (await db.select({ code: roleMenu.code }).from(roleMenu).where(eq(roleMenu.roleid, roleid))).map((r) => r.code);

const usersHolding = (db: DbOrTx, roleid: string) => countRows(db, sysuserRole, eq(sysuserRole.roleid, roleid));

const reservedKey = () =>
  denied({ zh: '角色权限字符 admin 为系统保留（内置管理员角色）', en: 'The role key "admin" is reserved for the built-in administrator role' });

/** Adding a code needs both the caller and the role's institution to hold it; codes a role already has may stay. */
async function checkCodes(ctx: Ctx, db: DbOrTx, account: AccountRow, codes: string[], previous: string[] = []) {
  const grantable = await grantableCodes(ctx, db, account);
  const kept = new Set(previous);
  const beyond = [...new Set(codes)].filter((c) => !grantable.has(c) && !kept.has(c));
  if (beyond.length) {
    denied({ zh: `不能授予您或该机构没有的权限：${beyond.join(', ')}`, en: `You cannot grant codes that you or the institution do not hold: ${beyond.join(', ')}` });
  }
}

/** A staff user may change only roles that give no more than it holds itself. */
async function checkManage(ctx: Ctx, db: DbOrTx, r: RoleRecord) {
  if (!boundedByCaller(ctx)) return;
  const effective = (await roleEffectiveCodes(db, [r.roleid])).get(r.roleid) ?? [];
  if (missingFrom(ctx, effective).length) {
    denied({ zh: '该角色的权限超出您的权限范围，不能修改', en: 'This role gives more than you hold; you cannot change it' });
  }
}

async function checkUnique(db: DbOrTx, musercode: string, fields: { rolename?: string; rolekey?: string }, except?: string) {
  const others = (col: AnyPgColumn, value: string) =>
    db
      .select({ roleid: role.roleid })
      .from(role)
      .where(and(eq(role.musercode, musercode), sql`lower(${col}) = lower(${value})`, except ? ne(role.roleid, except) : undefined));
  if (fields.rolename && (await others(role.rolename, fields.rolename)).length) {
    conflict({ zh: `角色名称“${fields.rolename}”已存在`, en: `A role named "${fields.rolename}" already exists` });
  }
  if (fields.rolekey && (await others(role.rolekey, fields.rolekey)).length) {
    conflict({ zh: `权限字符“${fields.rolekey}”已存在`, en: `The role key "${fields.rolekey}" is already used` });
  }
}

async function replaceCodes(db: DbOrTx, roleid: string, codes: string[]) {
  await db.delete(roleMenu).where(eq(roleMenu.roleid, roleid));
  const unique = [...new Set(codes)];
  if (unique.length) await db.insert(roleMenu).values(unique.map((code) => ({ roleid, code })));
}

const usercount = sql<number>`(select count(*) from ${sysuserRole} where ${sysuserRole.roleid} = ${outerColumn(role.roleid)})`.mapWith(Number);

export const roleHandlers = {
  'as.m.system.role.selectRoleList': async ({ page, pageSize, rolename, rolekey, enabled, musercode }, ctx) => {
    const where = and(ownedBy(ctx, role.musercode, musercode), contains(role.rolename, rolename), contains(role.rolekey, rolekey), enabled === undefined || enabled === '' ? undefined : eq(role.enabled, enabled));
    const query = ctx.db.select({ role, insname: insnameOf(role.musercode), usercount }).from(role).where(where).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [asc(role.musercode), asc(role.sort), asc(role.createdat), asc(role.roleid)], { page, pageSize });
    return {
      total,
      rows: rows.map(({ role: r, insname, usercount: n }) => ({
        roleid: r.roleid,
        musercode: r.musercode,
        insname,
        rolename: r.rolename,
        rolekey: r.rolekey,
        sort: r.sort,
        enabled: r.enabled,
        remark: r.remark,
        usercount: n,
        createdat: iso(r.createdat),
      })),
    };
  },

  'as.m.system.role.insertRole': async ({ codes, musercode, ...fields }, ctx) => {
    if (fields.rolekey.toLowerCase() === ADMIN_ROLE_KEY) reservedKey();
    const roleid = newId('R');
    const now = ctx.now();
    const owner = await ctx.db.transaction(async (tx) => {
      const account = await ownerAccount(ctx, tx, musercode);
      await checkUnique(tx, account.musercode, fields);
      await checkCodes(ctx, tx, account, codes);
      await tx.insert(role).values({ roleid, musercode: account.musercode, ...fields, createdat: now, updatedat: now });
      await replaceCodes(tx, roleid, codes);
      return account.musercode;
    });
    await ctx.audit({ result: 'ok', detail: { roleid, target: owner, rolekey: fields.rolekey, codes: [...new Set(codes)] } });
    return { roleid };
  },

  'as.m.system.role.updateRole': async ({ roleid, codes, ...fields }, ctx) => {
    await ctx.db.transaction(async (tx) => {
      const r = await findRole(ctx, tx, roleid);
      await checkManage(ctx, tx, r);
      const builtIn = r.rolekey === ADMIN_ROLE_KEY;
      if (builtIn && ((fields.rolekey && fields.rolekey !== ADMIN_ROLE_KEY) || codes || fields.enabled === 0)) {
        denied({ zh: '内置管理员角色的权限字符、权限和状态不能修改', en: 'The key, codes and state of the built-in administrator role cannot be changed' });
      }
      if (!builtIn && fields.rolekey?.toLowerCase() === ADMIN_ROLE_KEY) reservedKey();
      await checkUnique(tx, r.musercode, fields, roleid);
      if (codes) {
        await checkCodes(ctx, tx, r.account, codes, await roleCodes(tx, roleid));
        await replaceCodes(tx, roleid, codes);
      }
      await tx.update(role).set({ ...fields, updatedat: ctx.now() }).where(eq(role.roleid, roleid));
    });
    await ctx.audit({ result: 'ok', detail: { roleid, fields, codes } });
    return null;
  },

  'as.m.system.role.deleteRoleById': async ({ roleid }, ctx) => {
    const name = await ctx.db.transaction(async (tx) => {
      const r = await findRole(ctx, tx, roleid);
      await checkManage(ctx, tx, r);
      if (r.rolekey === ADMIN_ROLE_KEY) denied({ zh: '内置管理员角色不能删除', en: 'The built-in administrator role cannot be deleted' });
      const holders = await usersHolding(tx, roleid);
      if (holders > 0) {
        conflict({
          zh: `角色“${r.rolename}”已分配给 ${holders} 个用户，不能删除；请先在用户管理中取消分配`,
          en: `The role "${r.rolename}" is held by ${holders} user(s) and cannot be deleted; remove it from them in user management first`,
        });
      }
      await tx.delete(role).where(eq(role.roleid, roleid));
      return r.rolename;
    });
    await ctx.audit({ result: 'ok', detail: { roleid, rolename: name } });
    return null;
  },

  'as.m.system.role.updateMuserMenu': async ({ roleid, codes }, ctx) => {
    await ctx.db.transaction(async (tx) => {
      const r = await findRole(ctx, tx, roleid);
      await checkManage(ctx, tx, r);
      if (r.rolekey === ADMIN_ROLE_KEY) {
        denied({ zh: '内置管理员角色拥有本机构的全部权限，不能修改', en: 'The built-in administrator role holds every code of its institution; its codes cannot be changed' });
      }
      await checkCodes(ctx, tx, r.account, codes, await roleCodes(tx, roleid));
      await replaceCodes(tx, roleid, codes);
      await tx.update(role).set({ updatedat: ctx.now() }).where(eq(role.roleid, roleid));
    });
    await ctx.audit({ result: 'ok', detail: { roleid, codes: [...new Set(codes)] } });
    return null;
  },

  'as.m.system.role.selectRoleMenuTreeselect': async ({ roleid }, ctx) => {
    const r = await findRole(ctx, ctx.db, roleid);
    const checked = r.rolekey === ADMIN_ROLE_KEY ? ((await roleEffectiveCodes(ctx.db, [roleid])).get(roleid) ?? []) : await roleCodes(ctx.db, roleid);
    const offered = await grantableCodes(ctx, ctx.db, r.account);
    for (const code of checked) offered.add(code);
    const menus = menuTree(await allMenus(ctx.db), ctx.lang, (code) => offered.has(code));
    return { menus, checkedKeys: checked.filter((c) => offered.has(c)) };
  },

  'as.m.system.role.selectMuserMenuTreeselect': async ({ musercode }, ctx) => {
    const account = await ownerAccount(ctx, ctx.db, musercode);
    const offered = await grantableCodes(ctx, ctx.db, account);
    return { menus: menuTree(await allMenus(ctx.db), ctx.lang, (code) => offered.has(code)) };
  },
} satisfies HandlerMap;
