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
 * stored sealed (kit/crypt: AES-256-GCM) with a blind index each for exact search and uniqueness;
 * they are opened only for the rows a page shows, and masked there unless the caller may see them.
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
    /** Sealed (kit/crypt). */
    phonenumber: text(),
    /** Blind index of the phone number (personPhoneHash). */
    phonehash: text(),
    /** 18-character resident ID number, upper-case X; sealed (kit/crypt). */
    idcard: text(),
    /** Blind index of the ID number (personIdCardHash): what uniqueness and search use. */
    idcardhash: text(),
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
    /**
     * When the person was anonymised (erasure, issue 30 §5; rights.ts): name, phone, ID number,
     * birth day and month, free text and signatures are gone for good; gender, birth year,
     * institution, app and dates stay so statistics stay true. No edit is accepted afterwards.
     */
    anonymisedat: timestamp({ withTimezone: true }),
    /** Who: musercode[/userid] of staff, or 'retention' for the retention job. */
    anonymisedby: text(),
  },
  (t) => [
    check('cuser_gender_check', sql`${t.gender} in ('01', '02')`),
    check('cuser_source_check', sql`${t.source} in ('console', 'import', 'qrcode')`),
    // One living person per ID number in an institution (a deleted person's number may come back).
    uniqueIndex('cuser_idcard_idx').on(t.musercode, t.idcardhash).where(sql`${t.idcardhash} is not null and ${t.deletedat} is null`),
    index('cuser_phone_idx').on(t.musercode, t.phonehash),
    index('cuser_muser_app_idx').on(t.musercode, t.appid, t.createdat),
  ],
);

/**
 * An institution's retention period (issue 30 §5): persons with no activity for `months` months
 * are anonymised by the retention job (retention.ts). No row, or 0 months: off (the default).
 */
export const personRetention = pgTable(
  'person_retention',
  {
    musercode: text()
      .primaryKey()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    months: integer().notNull(),
    updatedat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [check('person_retention_months_check', sql`${t.months} between 0 and 600`)],
);
