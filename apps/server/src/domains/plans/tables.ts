import { pgTable, text, integer, timestamp, primaryKey, index, date } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { app } from '../apps/tables.js';
import { form } from '../scales/tables.js';

/**
 * Exam categories: a grouping of stages inside a population app (e.g. pregnancy / postpartum,
 * primary / secondary school). Platform reference data, synced from code at every start.
 */
export const examCategory = pgTable('exam_category', {
  categoryid: text().primaryKey(),
  appid: text()
    .notNull()
    .references(() => app.appid),
  categoryname: text().notNull(),
  categorynameen: text().notNull().default(''),
  sort: integer().notNull().default(0),
});

/** An assessment phase ("stage") of an app and category, owned by an institution or provider. */
export const examStage = pgTable(
  'exam_stage',
  {
    stagecode: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    appid: text()
      .notNull()
      .references(() => app.appid),
    categoryid: text()
      .notNull()
      .references(() => examCategory.categoryid),
    stagename: text().notNull(),
    description: text().notNull().default(''),
    sort: integer().notNull().default(0),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('exam_stage_muser_idx').on(t.musercode)],
);

/** The forms given in a stage, in order. */
export const examStageForm = pgTable(
  'exam_stage_form',
  {
    stagecode: text()
      .notNull()
      .references(() => examStage.stagecode, { onDelete: 'cascade' }),
    formcode: text()
      .notNull()
      .references(() => form.formcode, { onDelete: 'cascade' }),
    sort: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.stagecode, t.formcode] })],
);

/** Stages a provider's stage given to an institution it serves (as.m.muser.addAppsAndStages). */
export const muserStage = pgTable(
  'muser_stage',
  {
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    stagecode: text()
      .notNull()
      .references(() => examStage.stagecode, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.musercode, t.stagecode] })],
);

/** An assessment plan: a named bundle of stages and forms for one app (DESIGN §5). */
export const plan = pgTable(
  'plan',
  {
    plancode: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    planname: text().notNull(),
    appid: text()
      .notNull()
      .references(() => app.appid),
    description: text().notNull().default(''),
    /** 1: a frequently used plan, listed first and offered first when creating tasks. */
    iscommon: integer().notNull().default(0),
    enabled: integer().notNull().default(1),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('plan_muser_idx').on(t.musercode)],
);

/** The stages of a plan, in order. */
export const planStage = pgTable(
  'plan_stage',
  {
    plancode: text()
      .notNull()
      .references(() => plan.plancode, { onDelete: 'cascade' }),
    stagecode: text()
      .notNull()
      .references(() => examStage.stagecode, { onDelete: 'cascade' }),
    sort: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.plancode, t.stagecode] })],
);

/** The forms of a plan; stagecode '' for a form given outside any stage. */
export const planForm = pgTable(
  'plan_form',
  {
    plancode: text()
      .notNull()
      .references(() => plan.plancode, { onDelete: 'cascade' }),
    stagecode: text().notNull().default(''),
    formcode: text()
      .notNull()
      .references(() => form.formcode, { onDelete: 'cascade' }),
    sort: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.plancode, t.stagecode, t.formcode] })],
);

/** A plan authorised to an institution: how many assessments, between which dates. */
export const planAuthorize = pgTable(
  'plan_authorize',
  {
    authid: text().primaryKey(),
    plancode: text()
      .notNull()
      .references(() => plan.plancode, { onDelete: 'cascade' }),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    count: integer().notNull(),
    usedcount: integer().notNull().default(0),
    startdate: date({ mode: 'string' }).notNull(),
    enddate: date({ mode: 'string' }).notNull(),
    /** Who authorised it (the plan owner's side). */
    grantedby: text().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('plan_authorize_plan_idx').on(t.plancode), index('plan_authorize_muser_idx').on(t.musercode)],
);
