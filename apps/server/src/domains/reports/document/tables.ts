import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { muser } from '../../accounts/tables.js';

/**
 * PDF zip exports (issue 27 item 9). A row is both the export's record and its claim on one of
 * the institution's export slots: the partial unique index lets at most `slot` count of exports
 * of an account be queued or running at once, whatever the number of server processes, so a
 * second export is refused as busy by the database, not by a count read before an insert.
 *
 * kind 'inline': a zip streamed to the request that asked (up to 20 PDFs); its row lives while it
 * prints, its lease renewed after each PDF, and is deleted when it ends; a row whose lease ran out
 * (its process died) frees its slot. kind 'job': a background export, whose zip is stored
 * (filekey) and downloaded (by callers whose scope holds the account) until `expiresat`.
 */
export const reportExport = pgTable(
  'report_export',
  {
    exportid: text().primaryKey(),
    /** The account the caller acts for: the slots are counted per account. */
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    /** Who asked: a staff user's id, else the account's code. */
    createdby: text().notNull(),
    kind: text().$type<'inline' | 'job'>().notNull(),
    state: text().$type<ReportExportState>().notNull(),
    slot: integer().notNull(),
    lang: text().$type<'zh-CN' | 'en-US'>().notNull(),
    /** The reports, in order, fixed (and audited) when it was asked for. */
    reportids: jsonb().$type<string[]>().notNull(),
    /** The institutions of those reports: the job reads them as a caller scoped to these. */
    scope: jsonb().$type<string[]>().notNull(),
    printed: integer().notNull().default(0),
    filename: text().notNull(),
    filekey: text(),
    jobid: text(),
    error: text(),
    /** An inline export's lease: renewed after each PDF; once past, the slot is free again. */
    lockeduntil: timestamp({ withTimezone: true }),
    createdat: timestamp({ withTimezone: true }).notNull(),
    finishedat: timestamp({ withTimezone: true }),
    expiresat: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('report_export_state_ck', sql`${t.state} in ('queued', 'running', 'done', 'failed', 'cancelled')`),
    check('report_export_kind_ck', sql`${t.kind} in ('inline', 'job')`),
    uniqueIndex('report_export_slot_uq').on(t.musercode, t.slot).where(sql`${t.state} in ('queued', 'running')`),
    index('report_export_owner_idx').on(t.musercode, t.createdby, t.createdat),
  ],
);

export type ReportExportState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
export type ReportExportRecord = typeof reportExport.$inferSelect;
