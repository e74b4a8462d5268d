import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { storedFile } from '../files/tables.js';

/** A relaxation-music track (musicManagement 00039): an audio file of the file store. */
export const track = pgTable(
  'track',
  {
    trackid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    title: text().notNull(),
    audiofileid: text()
      .notNull()
      .references(() => storedFile.fileid),
    coverfileid: text().references(() => storedFile.fileid),
    sort: integer().notNull().default(0),
    enabled: integer().notNull().default(1),
    /** Population apps it is offered to (empty: every app of the institution). */
    appids: jsonb().$type<string[]>().notNull().default([]),
    createdat: timestamp({ withTimezone: true }).notNull(),
    updatedat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('track_muser_idx').on(t.musercode, t.sort), check('track_enabled_check', sql`${t.enabled} in (0, 1)`)],
);

/** A cloud-classroom course (cloudClassroom 00050) of video lessons. */
export const course = pgTable(
  'course',
  {
    courseid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    title: text().notNull(),
    description: text().notNull().default(''),
    coverfileid: text().references(() => storedFile.fileid),
    sort: integer().notNull().default(0),
    enabled: integer().notNull().default(1),
    appids: jsonb().$type<string[]>().notNull().default([]),
    createdat: timestamp({ withTimezone: true }).notNull(),
    updatedat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('course_muser_idx').on(t.musercode, t.sort), check('course_enabled_check', sql`${t.enabled} in (0, 1)`)],
);

/** A lesson of a course, numbered from 1 in the course's order. */
export const lesson = pgTable(
  'lesson',
  {
    courseid: text()
      .notNull()
      .references(() => course.courseid, { onDelete: 'cascade' }),
    lessonno: integer().notNull(),
    title: text().notNull(),
    videofileid: text()
      .notNull()
      .references(() => storedFile.fileid),
  },
  (t) => [primaryKey({ columns: [t.courseid, t.lessonno] }), check('lesson_no_check', sql`${t.lessonno} >= 1`)],
);
