import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TemplateBody } from '@xinli/contract';
import { muser } from '../../accounts/tables.js';
import { assessment } from '../../assessments/tables.js';
import { plan } from '../../plans/tables.js';

/**
 * The custom report's templates (issue 31 §4). A template is a name and an owner; what it shows
 * lives in its versions, each written once and never changed (the handlers only insert them), so
 * a report rendered with a version reads the same whenever it is printed again.
 */
export const reportTemplate = pgTable(
  'report_template',
  {
    templateid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** The newest version: the one a report not yet rendered gets. */
    version: integer().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
    updatedat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('report_template_name_uq').on(t.musercode, t.name)],
);

export const reportTemplateVersion = pgTable(
  'report_template_version',
  {
    versionid: text().primaryKey(),
    templateid: text()
      .notNull()
      .references(() => reportTemplate.templateid, { onDelete: 'cascade' }),
    version: integer().notNull(),
    body: jsonb().$type<TemplateBody>().notNull(),
    /** Who saved it: a staff user's id, else the account's code. */
    createdby: text().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('report_template_version_uq').on(t.templateid, t.version)],
);

/** The template a plan of app 000000005 picked (one per plan). */
export const planReportTemplate = pgTable(
  'plan_report_template',
  {
    plancode: text()
      .primaryKey()
      .references(() => plan.plancode, { onDelete: 'cascade' }),
    templateid: text()
      .notNull()
      .references(() => reportTemplate.templateid, { onDelete: 'cascade' }),
  },
  (t) => [index('plan_report_template_tpl_idx').on(t.templateid)],
);

/**
 * The template version a report keeps: written once, in the transaction that stores the report
 * (for a report stored before that, the first time it is shown, printed or read by its
 * respondent), and kept when the template changes afterwards. A version in use cannot be deleted
 * (restrict).
 */
export const reportTemplateUse = pgTable(
  'report_template_use',
  {
    assessid: text()
      .primaryKey()
      .references(() => assessment.assessid, { onDelete: 'cascade' }),
    versionid: text()
      .notNull()
      .references(() => reportTemplateVersion.versionid, { onDelete: 'restrict' }),
    createdat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('report_template_use_version_idx').on(t.versionid)],
);
