import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { UserRow } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, denied, invalid, notFound } from '../../http/errors.js';
import { enrolledSubjects, scopeWhere, secondFactorWhere, hashPassword, removeSecondFactor, revokeUserSessions, subjectOf } from '../auth/index.js';
import { dept, role, sysuser, sysuserRole } from './tables.js';
import { maskEmail, maskPhone, contains, iso, newId, paged } from '../../kit/index.js';
import { boundedByCaller, missingFrom, roleEffectiveCodes, userCodes } from './common.js';
import { accountColumnsOf, accountSignInNameTaken, insnameOf, ownedBy, ownerAccount, type AccountRow } from '../accounts/index.js';
import { deptTree, findDept, subtreeIds } from './depts.js';
import { openContact, staffContactColumns, staffPhoneHash } from './contact.js';

type UserRecord = typeof sysuser.$inferSelect & { account: AccountRow };

/** A staff user in the caller's scope with its institution, else not found. */
async function findUser(ctx: Ctx, db: DbOrTx, userid: string): Promise<UserRecord> {
  const [row] = await db
    .select({ user: sysuser, account: accountColumnsOf(sysuser.musercode) })
    .from(sysuser)
    .where(and(eq(sysuser.userid, userid), scopeWhere(sysuser.musercode, ctx.me)));
  return row ? { ...row.user, account: row.account } : notFound();
}

/**
 * A staff user who manages users may act only on users holding no more than itself, and never
 * disables or deletes its own user (it would lock itself out mid-session).
 */
async function checkManage(ctx: Ctx, db: DbOrTx, u: UserRecord, what: 'change' | 'remove') {
  if (what === 'remove' && u.userid === ctx.me.userid) {
    denied({ zh: '不能删除或停用当前登录的用户', en: 'You cannot delete or disable the user you are signed in as' });
  }
  if (!boundedByCaller(ctx) || u.userid === ctx.me.userid) return;
  if (missingFrom(ctx, await userCodes(db, u.account, u.userid)).length) {
    denied({ zh: '该用户的权限超出您的权限范围，不能操作', en: 'This user holds more than you do; you cannot change it' });
  }
}

/** The department must be one of the user's institution. */
async function checkDept(ctx: Ctx, db: DbOrTx, deptid: string | null | undefined, musercode: string) {
  if (!deptid) return;
  const d = await findDept(ctx, db, deptid);
  if (d.musercode !== musercode) invalid({ zh: '所选部门属于其他机构', en: 'The department belongs to another institution' });
}

/** Roles must be of the user's institution; a newly given role must give no more than the caller holds. */
async function checkRoles(ctx: Ctx, db: DbOrTx, roleids: string[], musercode: string, previous: string[] = []) {
  const wanted = [...new Set(roleids)];
  if (wanted.length === 0) return wanted;
  const rows = await db
    .select({ roleid: role.roleid, musercode: role.musercode, rolename: role.rolename })
    .from(role)
    .where(and(inArray(role.roleid, wanted), scopeWhere(role.musercode, ctx.me)));
  if (rows.length !== wanted.length) notFound();
  if (rows.some((r) => r.musercode !== musercode)) invalid({ zh: '只能分配本机构的角色', en: 'Only roles of the user’s own institution can be given' });
  const added = rows.filter((r) => !previous.includes(r.roleid));
  const effective = await roleEffectiveCodes(db, added.map((r) => r.roleid));
  const beyond = added.filter((r) => missingFrom(ctx, effective.get(r.roleid) ?? []).length > 0);
  if (beyond.length) {
    const names = beyond.map((r) => r.rolename).join(', ');
    denied({ zh: `不能分配权限超出您权限范围的角色：${names}`, en: `You cannot give roles that grant more than you hold: ${names}` });
  }
  return wanted;
}

async function replaceRoles(db: DbOrTx, userid: string, roleids: string[]) {
  await db.delete(sysuserRole).where(eq(sysuserRole.userid, userid));
  if (roleids.length) await db.insert(sysuserRole).values(roleids.map((roleid) => ({ userid, roleid })));
}

/**
 * Sign-in names are unique across institution accounts and staff users, whatever the case. The
 * database enforces it (signin_name, accounts/tables.ts), also under parallel creates; this check
 * only answers the common sequential clash with the name in the message.
 */
async function checkNameFree(db: DbOrTx, name: string) {
  const account = await accountSignInNameTaken(db, name);
  const [user] = await db.select({ n: sysuser.userid }).from(sysuser).where(sql`lower(${sysuser.sysusername}) = lower(${name})`);
  if (account || user) conflict({ zh: `登录账号“${name}”已被使用`, en: `The sign-in name "${name}" is already taken` });
}

async function rolesOf(db: DbOrTx, userids: string[]) {
  const out = new Map<string, { roleid: string; rolename: string }[]>();
  if (!userids.length) return out;
  const rows = await db
    .select({ userid: sysuserRole.userid, roleid: role.roleid, rolename: role.rolename })
    .from(sysuserRole)
    .innerJoin(role, eq(role.roleid, sysuserRole.roleid))
    .where(inArray(sysuserRole.userid, userids))
    .orderBy(asc(role.sort), asc(role.roleid));
  for (const r of rows) out.set(r.userid, [...(out.get(r.userid) ?? []), { roleid: r.roleid, rolename: r.rolename }]);
  return out;
}

/** The staff users among these who sign in with a confirmed second factor. */
async function enrolledUsers(db: DbOrTx, userids: string[]): Promise<Set<string>> {
  const subject = (userid: string) => subjectOf({ musercode: '', userid });
  const enrolled = await enrolledSubjects(db, userids.map(subject));
  return new Set(userids.filter((userid) => enrolled.has(subject(userid))));
}

type ListedUser = { user: typeof sysuser.$inferSelect; insname: string; deptname: string | null };

/** A staff user as the wire shows it; phone and email are opened here, for the rows of the page only, and masked in lists. */
function toRow({ user: sealed, insname, deptname }: ListedUser, roles: { roleid: string; rolename: string }[], masked: boolean, secondfactor: boolean): UserRow {
  const u = openContact(sealed);
  return {
    userid: u.userid,
    musercode: u.musercode,
    insname,
    sysusername: u.sysusername,
    realname: u.realname,
    phonenumber: masked ? maskPhone(u.phonenumber) : u.phonenumber,
    email: masked ? maskEmail(u.email) : u.email,
    sex: u.sex,
    deptid: u.deptid,
    deptname: deptname ?? '',
    enabled: u.enabled,
    remark: u.remark,
    roles,
    secondfactor,
    createdat: iso(u.createdat),
  };
}

const listed = (db: DbOrTx) =>
  db.select({ user: sysuser, insname: insnameOf(sysuser.musercode), deptname: dept.deptname }).from(sysuser).leftJoin(dept, eq(dept.deptid, sysuser.deptid));

/** The roles of an institution for the user form; grantable says whether the caller may give it. */
async function roleOptions(ctx: Ctx, db: DbOrTx, musercode: string) {
  const rows = await db
    .select({ roleid: role.roleid, rolename: role.rolename, rolekey: role.rolekey, enabled: role.enabled })
    .from(role)
    .where(eq(role.musercode, musercode))
    .orderBy(asc(role.sort), asc(role.roleid));
  const effective = await roleEffectiveCodes(db, rows.map((r) => r.roleid));
  return rows.map((r) => ({ ...r, grantable: missingFrom(ctx, effective.get(r.roleid) ?? []).length === 0 }));
}

export const userHandlers = {
  'as.m.system.user.selectUserList': async ({ page, pageSize, deptid, sysusername, realname, phonenumber, enabled, secondfactor, musercode }, ctx) => {
    const inDepts = deptid ? inArray(sysuser.deptid, [...(await subtreeIds(ctx.db, await findDept(ctx, ctx.db, deptid)))]) : undefined;
    const where = and(
      ownedBy(ctx, sysuser.musercode, musercode),
      inDepts,
      contains(sysuser.sysusername, sysusername),
      contains(sysuser.realname, realname),
      // Exact match through the blind index: a sealed phone cannot be searched by part.
      phonenumber ? eq(sysuser.phonehash, staffPhoneHash(phonenumber)) : undefined,
      enabled === undefined || enabled === '' ? undefined : eq(sysuser.enabled, enabled),
      secondfactor === undefined || secondfactor === '' ? undefined : secondFactorWhere({ userid: sysuser.userid }, secondfactor),
    );
    const { total, rows } = await paged(ctx.db, listed(ctx.db).where(where).$dynamic(), [desc(sysuser.createdat), asc(sysuser.userid)], { page, pageSize });
    const userids = rows.map((r) => r.user.userid);
    const [roles, enrolled] = await Promise.all([rolesOf(ctx.db, userids), enrolledUsers(ctx.db, userids)]);
    return { total, rows: rows.map((r) => toRow(r, roles.get(r.user.userid) ?? [], true, enrolled.has(r.user.userid))) };
  },

  'as.m.system.user.selectUserById': async ({ userid, musercode }, ctx) => {
    // A named institution must be in scope, and hold the user when both are given.
    const account = musercode === undefined && userid ? null : await ownerAccount(ctx, ctx.db, musercode);
    if (!userid) return { user: null, roles: await roleOptions(ctx, ctx.db, account!.musercode) };
    const u = await findUser(ctx, ctx.db, userid);
    if (account && u.musercode !== account.musercode) notFound();
    const [row] = await listed(ctx.db).where(eq(sysuser.userid, userid));
    const [roleMap, enrolled] = await Promise.all([rolesOf(ctx.db, [userid]), enrolledUsers(ctx.db, [userid])]);
    const roles = roleMap.get(userid) ?? [];
    // The form shows the phone in full: a read of personal data, so it is audited.
    await ctx.audit({ result: 'ok', detail: { userid, target: u.musercode } });
    return { user: { ...toRow(row!, roles, false, enrolled.has(userid)), roleids: roles.map((r) => r.roleid) }, roles: await roleOptions(ctx, ctx.db, u.musercode) };
  },

  'as.m.system.user.insertUser': async ({ sysusername, pwd, roleids, musercode, ...fields }, ctx) => {
    const userid = newId('U');
    const now = ctx.now();
    const pwdhash = await hashPassword(pwd);
    const owner = await ctx.db.transaction(async (tx) => {
      const account = await ownerAccount(ctx, tx, musercode);
      await checkNameFree(tx, sysusername);
      await checkDept(ctx, tx, fields.deptid, account.musercode);
      const roles = await checkRoles(ctx, tx, roleids, account.musercode);
      const { phonenumber, email, ...rest } = fields;
      await tx.insert(sysuser).values({ userid, musercode: account.musercode, sysusername, pwdhash, ...rest, ...staffContactColumns({ phonenumber, email }), createdat: now, updatedat: now });
      await replaceRoles(tx, userid, roles);
      return account.musercode;
    });
    await ctx.audit({ result: 'ok', detail: { userid, target: owner, sysusername, roleids, deptid: fields.deptid } });
    return { userid };
  },

  'as.m.system.user.updateUser': async ({ userid, roleids, ...fields }, ctx) => {
    await ctx.db.transaction(async (tx) => {
      const u = await findUser(ctx, tx, userid);
      await checkManage(ctx, tx, u, fields.enabled === 0 ? 'remove' : 'change');
      if (fields.deptid !== undefined) await checkDept(ctx, tx, fields.deptid, u.musercode);
      if (roleids) {
        const previous = ((await rolesOf(tx, [userid])).get(userid) ?? []).map((r) => r.roleid);
        await replaceRoles(tx, userid, await checkRoles(ctx, tx, roleids, u.musercode, previous));
      }
      const { phonenumber, email, ...rest } = fields;
      await tx
        .update(sysuser)
        .set({ ...rest, ...staffContactColumns({ phonenumber, email }), updatedat: ctx.now() })
        .where(eq(sysuser.userid, userid));
      if (fields.enabled === 0 && u.enabled === 1) await revokeUserSessions(tx, ctx.now(), userid);
    });
    const { phonenumber, email, ...rest } = fields;
    await ctx.audit({ result: 'ok', detail: { userid, fields: rest, roleids, contactChanged: phonenumber !== undefined || email !== undefined } });
    return null;
  },

  'as.m.system.user.deleteUserById': async ({ userid }, ctx) => {
    const name = await ctx.db.transaction(async (tx) => {
      const u = await findUser(ctx, tx, userid);
      await checkManage(ctx, tx, u, 'remove');
      await revokeUserSessions(tx, ctx.now(), userid);
      await tx.delete(sysuser).where(eq(sysuser.userid, userid));
      return u.sysusername;
    });
    await ctx.audit({ result: 'ok', detail: { userid, sysusername: name } });
    return null;
  },

  'as.m.system.user.selectDeptTreeList': async ({ musercode }, ctx) => {
    const rows = await ctx.db
      .select({ deptid: dept.deptid, parentid: dept.parentid, musercode: dept.musercode, deptname: dept.deptname, enabled: dept.enabled })
      .from(dept)
      .where(and(ownedBy(ctx, dept.musercode, musercode), eq(dept.enabled, 1)))
      .orderBy(asc(dept.musercode), asc(dept.sort), asc(dept.createdat), asc(dept.deptid));
    return deptTree(rows);
  },

  'as.m.system.user.resetPwd': async ({ userid, pwd }, ctx) => {
    const pwdhash = await hashPassword(pwd);
    await ctx.db.transaction(async (tx) => {
      const u = await findUser(ctx, tx, userid);
      await checkManage(ctx, tx, u, 'change');
      await tx.update(sysuser).set({ pwdhash, updatedat: ctx.now() }).where(eq(sysuser.userid, userid));
      await revokeUserSessions(tx, ctx.now(), userid);
    });
    await ctx.audit({ result: 'ok', detail: { userid } });
    return null;
  },

  'as.m.system.user.resetSecondFactor': async ({ userid }, ctx) => {
    const u = await findUser(ctx, ctx.db, userid);
    await checkManage(ctx, ctx.db, u, 'change');
    if (u.userid === ctx.me.userid) {
      invalid({ zh: '不能重置自己的双重验证；请在右上角账号菜单中管理', en: 'You cannot reset your own second factor; manage it in the account menu (top right)' });
    }
    const removed = await removeSecondFactor(ctx.db, { musercode: u.musercode, userid });
    await ctx.audit({ result: 'ok', detail: { userid, removed } });
    return null;
  },

  'as.m.system.user.enableUser': async ({ userid, enabled }, ctx) => {
    await ctx.db.transaction(async (tx) => {
      const u = await findUser(ctx, tx, userid);
      await checkManage(ctx, tx, u, enabled === 0 ? 'remove' : 'change');
      await tx.update(sysuser).set({ enabled, updatedat: ctx.now() }).where(eq(sysuser.userid, userid));
      if (enabled === 0) await revokeUserSessions(tx, ctx.now(), userid);
    });
    await ctx.audit({ result: 'ok', detail: { userid, enabled } });
    return null;
  },
} satisfies HandlerMap;
