import { z } from 'zod';
import { personNameOf } from '../person-name.js';
import { action, codes, flag, idString, md5Password, pageFields, pageOf, permissionCode, requiredText, text } from '../catalogue-kit.js';
import { SET_PASSWORD_CODE } from '../catalogue-kit.js';

/**
 * Permission management (menus, roles) and administration (departments, staff users) of SPEC §2
 * /authority and /organization. Every row belongs to an institution (musercode); a provider
 * sees its institutions' rows. Creating rows for an institution other than the caller's own
 * takes the optional musercode field.
 */

/** Optional institution filter of list actions, or owner of a new row (must be in scope). */
const owner = idString.optional();
const optionalFlag = z.union([flag, z.literal('')]).optional();
const sortValue = z.int().min(0).max(9999);

/** A node of the menu tree: one menu code with its titles; title follows the caller's language. */
export interface MenuTreeNode {
  code: string;
  parentcode: string | null;
  path: string;
  name: string;
  title: string;
  titlezh: string;
  titleen: string;
  hidden: boolean;
  sort: number;
  children: MenuTreeNode[];
}
export const menuTreeNode: z.ZodType<MenuTreeNode> = z.object({
  code: z.string(),
  parentcode: z.string().nullable(),
  path: z.string(),
  name: z.string(),
  title: z.string(),
  titlezh: z.string(),
  titleen: z.string(),
  hidden: z.boolean(),
  sort: z.int(),
  get children() {
    return z.array(menuTreeNode);
  },
});

export const roleRow = z.object({
  roleid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  rolename: z.string(),
  rolekey: z.string(),
  sort: z.int(),
  enabled: z.int(),
  remark: z.string(),
  /** How many staff users hold the role (a role in use cannot be deleted). */
  usercount: z.int(),
  createdat: z.string(),
});
export type RoleRow = z.infer<typeof roleRow>;

/**
 * Role keys are short technical names; 'admin' is reserved for the built-in administrator role.
 * A key is a name, never a carrier of codes: no ':' (the server once joined key and code with it).
 */
const rolekey = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z][A-Za-z0-9_.-]*$/);
const menuCodes = z.array(permissionCode).max(500);

/** Editable fields; inserts default the optional ones, updates change only the fields sent. */
const roleFields = { rolename: requiredText(30), rolekey, sort: sortValue, enabled: flag, remark: text(200) };
const roleDefaults = { sort: sortValue.default(0), enabled: flag.default(1), remark: text(200).default('') };
const partial = <T extends z.ZodRawShape>(shape: T) => z.object(shape).partial().shape;

export const deptRow = z.object({
  deptid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  parentid: z.string().nullable(),
  deptname: z.string(),
  sort: z.int(),
  leader: z.string(),
  phonenumber: z.string(),
  email: z.string(),
  enabled: z.int(),
  /** Staff users directly in this department. */
  usercount: z.int(),
  createdat: z.string(),
});
export type DeptRow = z.infer<typeof deptRow>;

/** A department tree node for pickers and the user page's filter. */
export interface DeptTreeNode {
  deptid: string;
  parentid: string | null;
  musercode: string;
  deptname: string;
  enabled: number;
  children: DeptTreeNode[];
}
export const deptTreeNode: z.ZodType<DeptTreeNode> = z.object({
  deptid: z.string(),
  parentid: z.string().nullable(),
  musercode: z.string(),
  deptname: z.string(),
  enabled: z.int(),
  get children() {
    return z.array(deptTreeNode);
  },
});

const email = z.union([z.email().max(64), z.literal('')]);
/** Mainland mobile or landline style numbers; '' when not given. */
const phoneNumber = z.union([
  z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 -]{4,18}[0-9]$/),
  z.literal(''),
]);

const deptFields = {
  parentid: idString.nullable(),
  deptname: requiredText(30),
  sort: sortValue,
  leader: text(20),
  phonenumber: phoneNumber,
  email,
  enabled: flag,
};
const deptDefaults = {
  parentid: idString.nullable().default(null),
  sort: sortValue.default(0),
  leader: text(20).default(''),
  phonenumber: phoneNumber.default(''),
  email: email.default(''),
  enabled: flag.default(1),
};

export const userRow = z.object({
  userid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  sysusername: z.string(),
  realname: z.string(),
  /** Masked in lists (138****5678); the edit form read answers it in full. */
  phonenumber: z.string(),
  /** Masked in lists (l***@example.cn), as the phone. */
  email: z.string(),
  sex: z.string(),
  deptid: z.string().nullable(),
  deptname: z.string(),
  enabled: z.int(),
  remark: z.string(),
  roles: z.array(z.object({ roleid: z.string(), rolename: z.string() })),
  /** Signs in with a confirmed second factor (an MLPS review asks who does). */
  secondfactor: z.boolean(),
  createdat: z.string(),
});
export type UserRow = z.infer<typeof userRow>;

/** Sign-in names: letters, digits and . _ @ -, starting with a letter or digit. */
export const sysusername = z
  .string()
  .trim()
  .min(2)
  .max(30)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]*$/);
const sex = z.union([z.literal('01'), z.literal('02'), z.literal('')]);

const userFields = {
  realname: personNameOf(30),
  phonenumber: phoneNumber,
  email,
  sex,
  deptid: idString.nullable(),
  roleids: z.array(idString).max(20),
  enabled: flag,
  remark: text(200),
};
const userDefaults = {
  phonenumber: phoneNumber.default(''),
  email: email.default(''),
  sex: sex.default(''),
  deptid: idString.nullable().default(null),
  roleids: z.array(idString).max(20).default([]),
  enabled: flag.default(1),
  remark: text(200).default(''),
};

/** A role offered in the user form; grantable is false when it gives more than the caller holds. */
export const roleOption = z.object({
  roleid: z.string(),
  rolename: z.string(),
  rolekey: z.string(),
  enabled: z.int(),
  grantable: z.boolean(),
});

/** An institution the caller manages (its own first), for the institution pickers of providers. */
export const institutionOption = z.object({ musercode: z.string(), insname: z.string(), musertype: z.string() });

export const systemActions = {
  'as.m.system.muser.selectInstitutionList': action({
    access: codes('000311', '000312', '000313'),
    kind: 'json',
    op: 'list',
    summary: 'The accounts whose roles, departments and users the caller manages: its own first, then its institutions (a provider’s).',
    input: z.strictObject({}),
    output: z.array(institutionOption),
  }),

  'as.m.system.menu.selectMenuList': action({
    access: codes('00031'),
    kind: 'json',
    op: 'list',
    summary:
      'The menu tree (codes, zh/en titles, paths, hidden) of the codes the caller holds; a title filter keeps matches with their ancestors.',
    input: z.strictObject({ title: text(30).optional() }),
    output: z.array(menuTreeNode),
  }),

  'as.m.system.role.selectRoleList': action({
    access: codes('000311'),
    kind: 'json',
    op: 'list',
    summary: 'Roles in scope, paged, filtered by name, key and enabled; a provider may name one of its institutions.',
    input: z.strictObject({
      ...pageFields,
      rolename: text(30).optional(),
      rolekey: text(32).optional(),
      enabled: optionalFlag,
      musercode: owner,
    }),
    output: pageOf(roleRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.system.role.insertRole': action({
    access: codes('000311'),
    kind: 'json',
    op: 'write',
    summary: 'Create a role with its menu codes; only codes both the caller and the role’s institution hold can be given.',
    input: z.strictObject({ ...roleFields, ...roleDefaults, codes: menuCodes.default([]), musercode: owner }),
    output: z.object({ roleid: z.string() }),
    ids: { musercode: 'muser' },
    unique: ['rolename', 'rolekey'],
    changes: 'grants',
  }),
  'as.m.system.role.updateRole': action({
    access: codes('000311'),
    kind: 'json',
    op: 'write',
    summary: 'Change a role’s name, key, order, state and remark, and its menu codes when codes is given.',
    input: z.strictObject({ roleid: idString, ...partial(roleFields), codes: menuCodes.optional() }),
    output: z.null(),
    ids: { roleid: 'role' },
    changes: 'grants',
  }),
  'as.m.system.role.deleteRoleById': action({
    access: codes('000311'),
    kind: 'json',
    op: 'write',
    summary: 'Delete a role; refused while any staff user holds it.',
    input: z.strictObject({ roleid: idString }),
    output: z.null(),
    ids: { roleid: 'role' },
    changes: 'grants',
  }),
  'as.m.system.role.updateMuserMenu': action({
    access: codes('000311'),
    kind: 'json',
    op: 'write',
    summary: 'Replace a role’s menu codes.',
    input: z.strictObject({ roleid: idString, codes: menuCodes }),
    output: z.null(),
    ids: { roleid: 'role' },
    changes: 'grants',
  }),
  'as.m.system.role.selectRoleMenuTreeselect': action({
    access: codes('000311'),
    kind: 'json',
    op: 'read',
    summary: 'The menu tree a role may be given (codes of the caller and of the role’s institution) plus its checked codes.',
    input: z.strictObject({ roleid: idString }),
    output: z.object({ menus: z.array(menuTreeNode), checkedKeys: z.array(z.string()) }),
    ids: { roleid: 'role' },
  }),
  'as.m.system.role.selectMuserMenuTreeselect': action({
    access: codes('000311'),
    kind: 'json',
    op: 'read',
    summary: 'The menu tree of codes an account holds that the caller may give to that account’s roles.',
    input: z.strictObject({ musercode: owner }),
    output: z.object({ menus: z.array(menuTreeNode) }),
    ids: { musercode: 'muser' },
  }),

  'as.m.system.dept.selectDeptList': action({
    access: codes('000312'),
    kind: 'json',
    op: 'list',
    summary: 'Departments in scope as a flat list ordered for a tree, filtered by name and enabled.',
    input: z.strictObject({ deptname: text(30).optional(), enabled: optionalFlag, musercode: owner }),
    output: z.array(deptRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.system.dept.selectDeptListExcludeChild': action({
    access: codes('000312'),
    kind: 'json',
    op: 'list',
    summary: 'The departments that may become a department’s parent: its institution’s, without itself and its descendants.',
    input: z.strictObject({ deptid: idString }),
    output: z.array(deptRow),
    ids: { deptid: 'dept' },
  }),
  'as.m.system.dept.insertDept': action({
    access: codes('000312'),
    kind: 'json',
    op: 'write',
    summary: 'Create a department under a parent of the same institution (or a root); names are unique among siblings.',
    input: z.strictObject({ ...deptFields, ...deptDefaults, musercode: owner }),
    output: z.object({ deptid: z.string() }),
    ids: { parentid: 'dept', musercode: 'muser' },
    unique: ['deptname'],
  }),
  'as.m.system.dept.updateDept': action({
    access: codes('000312'),
    kind: 'json',
    op: 'write',
    summary: 'Change a department; it cannot move under itself or its descendants, nor be disabled while it has enabled children.',
    input: z.strictObject({ deptid: idString, ...partial(deptFields) }),
    output: z.null(),
    ids: { deptid: 'dept', parentid: 'dept' },
  }),
  'as.m.system.dept.deleteDeptById': action({
    access: codes('000312'),
    kind: 'json',
    op: 'write',
    summary: 'Delete a department; refused while it has child departments or staff users.',
    input: z.strictObject({ deptid: idString }),
    output: z.null(),
    ids: { deptid: 'dept' },
  }),

  'as.m.system.user.selectUserList': action({
    access: codes('000313'),
    kind: 'json',
    op: 'list',
    summary:
      'Staff users in scope, paged, filtered by department subtree, name, the whole phone number (exact, through its blind index: phones are stored encrypted), enabled and second factor (confirmed or not); phones and emails are masked.',
    input: z.strictObject({
      ...pageFields,
      deptid: idString.optional(),
      sysusername: text(30).optional(),
      realname: text(30).optional(),
      phonenumber: text(20).optional(),
      enabled: optionalFlag,
      secondfactor: optionalFlag,
      musercode: owner,
    }),
    output: pageOf(userRow),
    ids: { deptid: 'dept', musercode: 'muser' },
  }),
  'as.m.system.user.selectUserById': action({
    access: codes('000313'),
    kind: 'json',
    op: 'read',
    summary:
      'The edit form of a staff user (phone and email in full, audited) with the roles it may be given; without userid, the roles for a new user of the caller’s (or the named) institution.',
    input: z.strictObject({ userid: idString.optional(), musercode: owner }),
    output: z.object({ user: userRow.extend({ roleids: z.array(z.string()) }).nullable(), roles: z.array(roleOption) }),
    ids: { userid: 'sysuser', musercode: 'muser' },
  }),
  'as.m.system.user.insertUser': action({
    access: codes('000313'),
    kind: 'json',
    op: 'write',
    summary: 'Create a staff user: a sign-in name unique among all accounts, the MD5 password, department and roles of its institution.',
    input: z.strictObject({ sysusername, pwd: md5Password, ...userFields, ...userDefaults, musercode: owner }),
    output: z.object({ userid: z.string() }),
    ids: { deptid: 'dept', roleids: 'role', musercode: 'muser' },
    unique: ['sysusername'],
    changes: 'grants',
  }),
  'as.m.system.user.updateUser': action({
    access: codes('000313'),
    kind: 'json',
    op: 'write',
    summary: 'Change a staff user’s profile, department, roles and state (the sign-in name stays).',
    input: z.strictObject({ userid: idString, ...partial(userFields) }),
    output: z.null(),
    ids: { userid: 'sysuser', deptid: 'dept', roleids: 'role' },
    changes: 'grants',
  }),
  'as.m.system.user.deleteUserById': action({
    access: codes('000313'),
    kind: 'json',
    op: 'write',
    summary: 'Delete a staff user and end its sessions; nobody deletes their own user.',
    input: z.strictObject({ userid: idString }),
    output: z.null(),
    ids: { userid: 'sysuser' },
    changes: 'state',
  }),
  'as.m.system.user.selectDeptTreeList': action({
    access: codes('000313'),
    kind: 'json',
    op: 'list',
    summary: 'The department tree in scope (enabled departments) for the user page’s filter and form.',
    input: z.strictObject({ musercode: owner }),
    output: z.array(deptTreeNode),
    ids: { musercode: 'muser' },
  }),
  'as.m.system.user.resetPwd': action({
    // Its own code, not user management (000313): the school's admin role does not get it by itself.
    access: codes(SET_PASSWORD_CODE),
    kind: 'json',
    op: 'write',
    summary:
      'Set a staff user’s password (uppercase MD5) and end its sessions; only for a user whose codes the caller holds all of (a login-as session: its actor).',
    input: z.strictObject({ userid: idString, pwd: md5Password }),
    output: z.null(),
    ids: { userid: 'sysuser' },
    changes: 'password',
  }),
  'as.m.system.user.resetSecondFactor': action({
    access: codes(SET_PASSWORD_CODE),
    kind: 'json',
    op: 'write',
    summary:
      'The institution (or a staff user with the password code) removes a staff user’s second factor and recovery codes, so it enrols again; only for a user whose codes the caller holds all of. Audited.',
    input: z.strictObject({ userid: idString }),
    output: z.null(),
    ids: { userid: 'sysuser' },
    changes: 'password',
  }),
  'as.m.system.user.enableUser': action({
    access: codes('000313'),
    kind: 'json',
    op: 'write',
    summary: 'Enable (1) or disable (0) a staff user; disabling ends its sessions.',
    input: z.strictObject({ userid: idString, enabled: flag }),
    output: z.null(),
    ids: { userid: 'sysuser' },
    changes: 'state',
  }),
};
