import { sql } from 'drizzle-orm';
import { pgTable, text, integer, boolean, jsonb, timestamp, primaryKey, index, uniqueIndex } from 'drizzle-orm/pg-core';

/** An institution or provider account (DESIGN §5 muser). Providers own institutions via parentcode. */
export const muser = pgTable(
  'muser',
  {
    musercode: text().primaryKey(),
    username: text().notNull().unique(),
    pwdhash: text().notNull(),
    musertype: text().notNull(),
    insname: text().notNull().default(''),
    realname: text().notNull().default(''),
    phonenumber: text().notNull().default(''),
    provincecode: text().notNull().default(''),
    citycode: text().notNull().default(''),
    districtcode: text().notNull().default(''),
    regionname: text().notNull().default(''),
    categorycode: text().notNull().default(''),
    categorylevel: integer().notNull().default(0),
    categorycode0: text().notNull().default(''),
    categorycode1: text().notNull().default(''),
    categorycode2: text().notNull().default(''),
    categorycode3: text().notNull().default(''),
    categorycode4: text().notNull().default(''),
    categorycode5: text().notNull().default(''),
    parentcode: text(),
    qrcodeurl: text().notNull().default(''),
    enabled: integer().notNull().default(1),
    /** SPEC §2/§6 behaviours kept as data, never as account codes in source. */
    loginasmarker: text().notNull().default(''),
    appdialogexempt: boolean().notNull().default(false),
    navbarlinks: jsonb().$type<{ key: string; url: string }[]>().notNull().default([]),
    /** The account's own web site (https), shown as the navbar's website button; '' for none. */
    website: text().notNull().default(''),
    issuper: boolean().notNull().default(false),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('muser_parent_idx').on(t.parentcode)],
);

/** Permission codes granted to an account (SPEC §6: menu or component codes). */
export const muserPermission = pgTable(
  'muser_permission',
  {
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    code: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.musercode, t.code] })],
);

/**
 * Every sign-in name in use, of institution accounts (muser.username) and staff users
 * (sysuser.sysusername) alike. A unique index cannot span two tables, so the names of both
 * live here too, under one unique index on lower(name): "Racerpg2" and "racerpg2" cannot both
 * sign in, whichever table each would be written to and however many requests race.
 *
 * Database triggers (migration 0006) write this table in the same statement as the muser or
 * sysuser row, so no insert path (handlers, the demo seed, create-admin, tests) can skip it,
 * and a clash aborts that row's insert with a unique violation (db/unique.ts answers it as
 * "the sign-in name is already taken"). Exactly one of musercode and userid is set.
 */
export const signinName = pgTable(
  'signin_name',
  {
    name: text().notNull(),
    musercode: text().references(() => muser.musercode, { onDelete: 'cascade' }),
    userid: text(),
  },
  (t) => [uniqueIndex('signin_name_lower_idx').on(sql`lower(${t.name})`), index('signin_name_user_idx').on(t.userid), index('signin_name_muser_idx').on(t.musercode)],
);

/**
 * The respondent entry of an institution (issue 10): what its respondents see when they open its
 * link, and the link's token. The token is 256 random bits, kept as is because the QR code must
 * be drawn again from it; replacing it (resetQrCode) makes the old link unknown at once.
 */
export const muserEntry = pgTable(
  'muser_entry',
  {
    musercode: text()
      .primaryKey()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    token: text().notNull(),
    title: text().notNull().default(''),
    logourl: text().notNull().default(''),
    welcome: text().notNull().default(''),
    consent: text().notNull().default(''),
    appids: jsonb().$type<string[]>().notNull().default([]),
    stagecodes: jsonb().$type<string[]>().notNull().default([]),
    showresult: integer().notNull().default(0),
    hotline: text().notNull().default(''),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('muser_entry_token_idx').on(t.token)],
);

/**
 * The origin of a person registered through an institution's QR link (issue 27 item 4): which link
 * (a hash of its token, so a reset link starts its own count), when, and from which address (a
 * hash: enough to count per address, not kept in clear). The per-address and per-link hourly caps
 * count these rows; staff undo a burst by the rows of a time window, and only those persons. The
 * person is the persons domain's (no foreign key: that domain removes its own rows); an undone
 * row stays, so an undo gives a flood no new room under the caps.
 */
export const linkEntry = pgTable(
  'link_entry',
  {
    cusercode: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    linkhash: text().notNull(),
    addrhash: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    /** When staff undid the entry (its person, cases and results removed), and who. */
    undoneat: timestamp({ withTimezone: true }),
    undoneby: text(),
  },
  (t) => [index('link_entry_muser_idx').on(t.musercode, t.at), index('link_entry_link_idx').on(t.linkhash, t.at), index('link_entry_addr_idx').on(t.addrhash, t.at)],
);
