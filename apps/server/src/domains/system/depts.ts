import { and, asc, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { DeptRow, DeptTreeNode } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { scopeWhere } from '../auth/index.js';
import { dept, sysuser } from './tables.js';
import { deptContactColumns, openContact } from './contact.js';
import { contains, countRows, iso, newId, outerColumn } from '../../kit/index.js';
import { insnameOf, ownedBy, ownerAccount } from '../accounts/index.js';

type DeptRecord = typeof dept.$inferSelect;

/** A department in the caller's scope, else not found. */
export async function findDept(ctx: Ctx, db: DbOrTx, deptid: string): Promise<DeptRecord> {
  const [row] = await db
    .select()
    .from(dept)
    .where(and(eq(dept.deptid, deptid), scopeWhere(dept.musercode, ctx.me)));
  return row ?? notFound();
}

/** A department and every department below it, by walking parent links of its institution. */
export async function subtreeIds(db: DbOrTx, root: DeptRecord): Promise<Set<string>> {
  const rows = await db.select({ deptid: dept.deptid, parentid: dept.parentid }).from(dept).where(eq(dept.musercode, root.musercode));
  const children = new Map<string, string[]>();
  for (const r of rows) if (r.parentid) children.set(r.parentid, [...(children.get(r.parentid) ?? []), r.deptid]);
  const out = new Set<string>();
  const stack = [root.deptid];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

const usercount = sql<number>`(select count(*) from ${sysuser} where ${sysuser.deptid} = ${outerColumn(dept.deptid)})`.mapWith(Number);

async function listDepts(db: DbOrTx, where: SQL | undefined): Promise<DeptRow[]> {
  const rows = await db
    .select({ dept, insname: insnameOf(dept.musercode), usercount })
    .from(dept)
    .where(where)
    .orderBy(asc(dept.musercode), asc(dept.sort), asc(dept.createdat), asc(dept.deptid));
  return rows.map(({ dept: d, insname, usercount: n }) => ({
    deptid: d.deptid,
    musercode: d.musercode,
    insname,
    parentid: d.parentid,
    deptname: d.deptname,
    sort: d.sort,
    leader: d.leader,
    ...openContact({ phonenumber: d.phonenumber, email: d.email }),
    enabled: d.enabled,
    usercount: n,
    createdat: iso(d.createdat),
  }));
}

/** Nests flat departments; one whose parent is absent from the list becomes a root. */
export function deptTree(rows: { deptid: string; parentid: string | null; musercode: string; deptname: string; enabled: number }[]): DeptTreeNode[] {
  const nodes = new Map(rows.map((r) => [r.deptid, { deptid: r.deptid, parentid: r.parentid, musercode: r.musercode, deptname: r.deptname, enabled: r.enabled, children: [] as DeptTreeNode[] }]));
  const roots: DeptTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentid ? nodes.get(node.parentid) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

async function checkSiblingName(db: DbOrTx, musercode: string, parentid: string | null, deptname: string, except?: string) {
  const [clash] = await db
    .select({ deptid: dept.deptid })
    .from(dept)
    .where(and(eq(dept.musercode, musercode), parentid ? eq(dept.parentid, parentid) : isNull(dept.parentid), eq(dept.deptname, deptname), except ? ne(dept.deptid, except) : undefined));
  if (clash) conflict({ zh: `同级下已有部门“${deptname}”`, en: `A department named "${deptname}" already exists at this level` });
}

/** A parent must be in scope, of the same institution, and enabled. */
async function usableParent(ctx: Ctx, db: DbOrTx, parentid: string, musercode: string | undefined): Promise<DeptRecord> {
  const parent = await findDept(ctx, db, parentid);
  if (musercode !== undefined && parent.musercode !== musercode) {
    invalid({ zh: '上级部门属于其他机构', en: 'The parent department belongs to another institution' });
  }
  if (parent.enabled !== 1) conflict({ zh: `上级部门“${parent.deptname}”已停用，不能在其下新增或移入部门`, en: `The parent department "${parent.deptname}" is disabled` });
  return parent;
}

export const deptHandlers = {
  'as.m.system.dept.selectDeptList': async ({ deptname, enabled, musercode }, ctx) =>
    listDepts(ctx.db, and(ownedBy(ctx, dept.musercode, musercode), contains(dept.deptname, deptname), enabled === undefined || enabled === '' ? undefined : eq(dept.enabled, enabled))),

  'as.m.system.dept.selectDeptListExcludeChild': async ({ deptid }, ctx) => {
    const d = await findDept(ctx, ctx.db, deptid);
    const excluded = await subtreeIds(ctx.db, d);
    return (await listDepts(ctx.db, eq(dept.musercode, d.musercode))).filter((r) => !excluded.has(r.deptid));
  },

  'as.m.system.dept.insertDept': async ({ musercode, parentid, ...fields }, ctx) => {
    const deptid = newId('D');
    const now = ctx.now();
    const owner = await ctx.db.transaction(async (tx) => {
      // A named institution out of scope is "not found" before anything else is looked at.
      const named = musercode === undefined ? null : await ownerAccount(ctx, tx, musercode);
      const parent = parentid ? await usableParent(ctx, tx, parentid, musercode) : null;
      const owner = parent ? parent.musercode : (named ?? (await ownerAccount(ctx, tx, undefined))).musercode;
      await checkSiblingName(tx, owner, parentid ?? null, fields.deptname);
      await tx.insert(dept).values({ deptid, musercode: owner, parentid: parentid ?? null, ...fields, ...deptContactColumns(fields), createdat: now, updatedat: now });
      return owner;
    });
    await ctx.audit({ result: 'ok', detail: { deptid, target: owner, deptname: fields.deptname, parentid: parentid ?? null } });
    return { deptid };
  },

  'as.m.system.dept.updateDept': async ({ deptid, ...fields }, ctx) => {
    await ctx.db.transaction(async (tx) => {
      const d = await findDept(ctx, tx, deptid);
      const parentid = fields.parentid === undefined ? d.parentid : fields.parentid;
      if (parentid && parentid !== d.parentid) {
        await usableParent(ctx, tx, parentid, d.musercode);
        if ((await subtreeIds(tx, d)).has(parentid)) {
          invalid({ zh: '上级部门不能是本部门或其下级部门', en: 'A department cannot move under itself or one of its sub-departments' });
        }
      }
      if (fields.deptname !== undefined || parentid !== d.parentid) await checkSiblingName(tx, d.musercode, parentid, fields.deptname ?? d.deptname, deptid);
      if (fields.enabled === 0 && d.enabled === 1) {
        const active = await countRows(tx, dept, and(eq(dept.parentid, deptid), eq(dept.enabled, 1))!);
        if (active > 0) conflict({ zh: '该部门包含未停用的下级部门，请先停用下级部门', en: 'This department has enabled sub-departments; disable them first' });
      }
      await tx.update(dept).set({ ...fields, ...deptContactColumns(fields), parentid, updatedat: ctx.now() }).where(eq(dept.deptid, deptid));
    });
    // Phone and email are sealed at rest: the entry says they changed, never what they are (as a staff user's update does).
    const { phonenumber, email, ...rest } = fields;
    await ctx.audit({ result: 'ok', detail: { deptid, fields: rest, contactChanged: phonenumber !== undefined || email !== undefined } });
    return null;
  },

  'as.m.system.dept.deleteDeptById': async ({ deptid }, ctx) => {
    const name = await ctx.db.transaction(async (tx) => {
      const d = await findDept(ctx, tx, deptid);
      const children = await countRows(tx, dept, eq(dept.parentid, deptid));
      if (children > 0) {
        conflict({ zh: `部门“${d.deptname}”下还有 ${children} 个下级部门，不能删除`, en: `The department "${d.deptname}" has ${children} sub-department(s) and cannot be deleted` });
      }
      const users = await countRows(tx, sysuser, eq(sysuser.deptid, deptid));
      if (users > 0) {
        conflict({
          zh: `部门“${d.deptname}”下还有 ${users} 个用户，不能删除；请先将用户调到其他部门`,
          en: `The department "${d.deptname}" still has ${users} user(s) and cannot be deleted; move them to another department first`,
        });
      }
      await tx.delete(dept).where(eq(dept.deptid, deptid));
      return d.deptname;
    });
    await ctx.audit({ result: 'ok', detail: { deptid, deptname: name } });
    return null;
  },
} satisfies HandlerMap;
