import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ArchiveAnswer } from '@xinli/contract';
import { muser } from '../accounts/tables.js';
import { app } from '../apps/tables.js';

/**
 * A person assessed (cuser, 测评对象): one institution, one population app, and the answers of
 * the app's user-archive form (form type 02) as they were given.
 *
 * Deleting a person keeps the row (deletedat, deletedby): reports and the audit trail keep naming
 * who they are about, while every list and lookup leaves the person out. Phone and ID number are
 * stored in full and masked on the way out (handlers.ts).
 */
export const cuser = pgTable(
  'cuser',
  {
    cusercode: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    appid: text()
      .notNull()
      .references(() => app.appid),
    realname: text().notNull(),
    /** SPEC §3: 01 male, 02 female. */
    gender: text().notNull(),
    birthdate: date({ mode: 'string' }),
    phonenumber: text(),
    /** 18-character resident ID number, upper-case X. */
    idcard: text(),
    /** Answers of the archive form, [{ no, value }], checked against archiveformcode/archiveversion. */
    archive: jsonb().$type<ArchiveAnswer[]>().notNull().default([]),
    archiveformcode: text(),
    archiveversion: integer(),
    /** console (staff), import (Excel roster), qrcode (registered through the institution's QR code). */
    source: text().notNull().default('console'),
    /** The import that brought the person in (one id per committed file). */
    importid: text(),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedat: timestamp({ withTimezone: true }),
    /** Who deleted: musercode, with the staff userid when a staff user did. */
    deletedby: text(),
  },
  (t) => [
    check('cuser_gender_check', sql`${t.gender} in ('01', '02')`),
    check('cuser_source_check', sql`${t.source} in ('console', 'import', 'qrcode')`),
    // One living person per ID number in an institution (a deleted person's number may come back).
    uniqueIndex('cuser_idcard_idx').on(t.musercode, t.idcard).where(sql`${t.idcard} is not null and ${t.deletedat} is null`),
    index('cuser_muser_app_idx').on(t.musercode, t.appid, t.createdat),
  ],
);
