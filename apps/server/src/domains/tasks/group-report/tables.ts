import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { GroupSummarySections } from '@xinli/contract';
import { muser } from '../../accounts/tables.js';
import { task } from '../tables.js';

/**
 * The written summary of a group report (menu 00043): one row per summary of a task, or of one
 * of its teams (`teamid`; '' for the whole task). The newest row is the current one. States as
 * the AI individual report: queued → writing → draft → approved, or failed. At most one is
 * queued or being written per task and team (a partial unique index), whatever the races.
 */
export const groupSummary = pgTable(
  'group_summary',
  {
    summaryid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    taskid: text()
      .notNull()
      .references(() => task.taskid, { onDelete: 'cascade' }),
    teamid: text().notNull().default(''),
    state: text().$type<'queued' | 'writing' | 'failed' | 'draft' | 'approved'>().notNull(),
    writer: text().$type<'rules' | 'llm'>().notNull(),
    model: text().notNull(),
    lang: text().$type<'zh-CN' | 'en-US'>().notNull(),
    sections: jsonb().$type<GroupSummarySections>(),
    jobid: text(),
    error: text(),
    createdby: text().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
    writtenat: timestamp({ withTimezone: true }),
    approvedby: text(),
    approvedat: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('group_summary_state_ck', sql`${t.state} in ('queued', 'writing', 'failed', 'draft', 'approved')`),
    check('group_summary_writer_ck', sql`${t.writer} in ('rules', 'llm')`),
    check('group_summary_text_ck', sql`${t.state} not in ('draft', 'approved') or ${t.sections} is not null`),
    index('group_summary_task_idx').on(t.taskid, t.teamid, t.createdat),
    index('group_summary_muser_idx').on(t.musercode),
    uniqueIndex('group_summary_active_uq')
      .on(t.taskid, t.teamid)
      .where(sql`${t.state} in ('queued', 'writing')`),
  ],
);

export type GroupSummaryRow = typeof groupSummary.$inferSelect;
