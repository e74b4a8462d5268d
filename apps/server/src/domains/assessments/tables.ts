import { pgTable, text, integer, jsonb, timestamp, index } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { form } from '../scales/tables.js';

/**
 * One completed form (minimal: later issues add the person, task, report and warning links).
 * It keeps the version it was scored with, so a later edit of the form never changes it.
 */
export const assessment = pgTable(
  'assessment',
  {
    assessid: text().primaryKey(),
    formcode: text()
      .notNull()
      .references(() => form.formcode),
    version: integer().notNull(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    answers: jsonb().$type<unknown>().notNull(),
    scores: jsonb().$type<unknown>().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assessment_form_idx').on(t.formcode, t.version), index('assessment_muser_idx').on(t.musercode)],
);
