import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { WrittenSections } from '@xinli/contract';
import { muser } from '../../accounts/tables.js';
import { cuser } from '../../persons/tables.js';

/** A report a written report was built from, as it was then. */
export interface WrittenSourceRow {
  reportid: string;
  formname: string;
  createdat: string;
}

/**
 * The AI individual report (menu 001802): one row per written report of a person. The newest row
 * is the person's current one; older rows are history. `state` is queued → writing → draft →
 * approved, or failed (with `error`); only an approved one is shown to the respondent. At most one
 * is queued or being written per person at a time (a partial unique index), so two clicks, two
 * tabs or two server processes cannot start two.
 */
export const writtenReport = pgTable(
  'written_report',
  {
    writtenid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    cusercode: text()
      .notNull()
      .references(() => cuser.cusercode, { onDelete: 'cascade' }),
    state: text().$type<'queued' | 'writing' | 'failed' | 'draft' | 'approved'>().notNull(),
    writer: text().$type<'rules' | 'llm'>().notNull(),
    /** The LLM's model name, or the rule set's version. */
    model: text().notNull(),
    lang: text().$type<'zh-CN' | 'en-US'>().notNull(),
    sections: jsonb().$type<WrittenSections>(),
    sources: jsonb().$type<WrittenSourceRow[]>().notNull().default([]),
    /** The background job writing it (kit/jobs); its progress is shown while queued or writing. */
    jobid: text(),
    error: text(),
    createdby: text().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
    writtenat: timestamp({ withTimezone: true }),
    editedby: text(),
    editedat: timestamp({ withTimezone: true }),
    approvedby: text(),
    approvedat: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('written_report_state_ck', sql`${t.state} in ('queued', 'writing', 'failed', 'draft', 'approved')`),
    check('written_report_writer_ck', sql`${t.writer} in ('rules', 'llm')`),
    check('written_report_text_ck', sql`${t.state} not in ('draft', 'approved') or ${t.sections} is not null`),
    index('written_report_person_idx').on(t.cusercode, t.createdat),
    index('written_report_muser_idx').on(t.musercode),
    uniqueIndex('written_report_active_uq')
      .on(t.cusercode)
      .where(sql`${t.state} in ('queued', 'writing')`),
  ],
);

export type WrittenReportRow = typeof writtenReport.$inferSelect;
