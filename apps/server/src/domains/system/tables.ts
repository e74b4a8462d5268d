import { sql } from 'drizzle-orm';
import { pgTable, text, integer, timestamp, primaryKey, index, boolean, uniqueIndex } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';

/** The menu table of SPEC §2, seeded from the contract at every start. */
export const menu = pgTable('menu', {
  code: text().primaryKey(),
  parentcode: text(),
  path: text().notNull(),
  name: text().notNull(),
  titlezh: text().notNull(),
  titleen: text().notNull(),
  hidden: boolean().notNull().default(false),
  sort: integer().notNull().default(0),
});

/** Department tree of an institution. */
export const dept = pgTable(
  'dept',
  {
    deptid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    parentid: text(),
    deptname: text().notNull(),
    sort: integer().notNull().default(0),
    leader: text().notNull().default(''),
    phonenumber: text().notNull().default(''),
    enabled: integer().notNull().default(1),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    email: text().notNull().default(''),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('dept_muser_idx').on(t.musercode),
    index('dept_parent_idx').on(t.parentid),
    // Names are unique among siblings (roots of one institution are siblings); db/unique.ts names the clash.
    uniqueIndex('dept_sibling_name_idx').on(t.musercode, sql`coalesce(${t.parentid}, '')`, t.deptname),
  ],
);

/** A staff sub-account of an institution; signs in with its own name (userid set). */
export const sysuser = pgTable(
  'sysuser',
  {
    userid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    sysusername: text().notNull().unique(),
    pwdhash: text().notNull(),
    realname: text().notNull().default(''),
    /** Sealed (kit/crypt); '' for none. */
    phonenumber: text().notNull().default(''),
    /** Blind index of the phone number (exact search); null for none. */
    phonehash: text(),
    email: text().notNull().default(''),
    deptid: text().references(() => dept.deptid),
    enabled: integer().notNull().default(1),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Gender code of SPEC §3 ('01' male, '02' female) or '' when not given. */
    sex: text().notNull().default(''),
    remark: text().notNull().default(''),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sysuser_muser_idx').on(t.musercode), index('sysuser_dept_idx').on(t.deptid), index('sysuser_phone_idx').on(t.musercode, t.phonehash)],
);

/** A role of an institution; rolekey 'admin' grants every code the institution holds. */
export const role = pgTable(
  'role',
  {
    roleid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    rolename: text().notNull(),
    rolekey: text().notNull(),
    sort: integer().notNull().default(0),
    enabled: integer().notNull().default(1),
    remark: text().notNull().default(''),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('role_muser_idx').on(t.musercode),
    // Name and key are each unique within an institution, whatever the case; db/unique.ts names the clash.
    uniqueIndex('role_name_idx').on(t.musercode, sql`lower(${t.rolename})`),
    uniqueIndex('role_key_idx').on(t.musercode, sql`lower(${t.rolekey})`),
  ],
);

export const roleMenu = pgTable(
  'role_menu',
  {
    roleid: text()
      .notNull()
      .references(() => role.roleid, { onDelete: 'cascade' }),
    code: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleid, t.code] })],
);

export const sysuserRole = pgTable(
  'sysuser_role',
  {
    userid: text()
      .notNull()
      .references(() => sysuser.userid, { onDelete: 'cascade' }),
    roleid: text()
      .notNull()
      .references(() => role.roleid, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userid, t.roleid] })],
);
