import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { ArchiveAnswer } from '@xinli/contract';
import { muser } from '../accounts/tables.js';
import { cuser } from '../persons/tables.js';
import { form } from '../scales/tables.js';

/**
 * A consultation registration (SPEC §2 /registration 00016): one person's request for a
 * consultation, answered on a registration form (type 03) of a given version. From the respondent
 * page it names no person (cusercode null) until staff match one; the name and phone given are
 * kept. Answers are stored in the archive answer format (persons domain) and read against
 * `formcode`/`version`, so later edits of the form never change what was asked.
 */
export const registration = pgTable(
  'registration',
  {
    regid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    cusercode: text().references(() => cuser.cusercode, { onDelete: 'set null' }),
    /** The name and phone given on the respondent page ('' and null when staff entered it for a person). */
    realname: text().notNull().default(''),
    phone: text(),
    formcode: text()
      .notNull()
      .references(() => form.formcode),
    version: integer().notNull(),
    answers: jsonb().$type<ArchiveAnswer[]>().notNull(),
    /** new → inprogress → case | closed. */
    state: text().notNull().default('new'),
    /** respondent | staff. */
    source: text().notNull(),
    /** The staff user who entered it; '' from the respondent page. */
    createdby: text().notNull().default(''),
    /** The warnings domain's case it was turned into. */
    caseid: text().notNull().default(''),
    /** The address a respondent submission came from (its per-address cap); null for staff entries. */
    ip: text(),
    createdat: timestamp({ withTimezone: true }).notNull(),
    updatedat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('registration_muser_idx').on(t.musercode, t.createdat),
    index('registration_person_idx').on(t.cusercode),
    index('registration_ip_idx').on(t.ip, t.createdat),
    check('registration_state_check', sql`${t.state} in ('new', 'inprogress', 'case', 'closed')`),
    check('registration_source_check', sql`${t.source} in ('respondent', 'staff')`),
    check('registration_case_check', sql`(${t.state} = 'case') = (${t.caseid} <> '')`),
  ],
);
