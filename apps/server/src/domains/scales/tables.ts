import { sql } from 'drizzle-orm';
import { pgTable, text, integer, jsonb, timestamp, primaryKey, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';

/**
 * A scale ("form", SPEC §3 form types 01-04). Built-in scales of the platform library have
 * musercode null: every institution reads them, nobody edits them, anyone may copy them.
 * The header columns are what the library list filters on and shows (mirrored from the current
 * definition on every save); the body lives per version.
 */
export const form = pgTable(
  'form',
  {
    formcode: text().primaryKey(),
    /** Owning institution; null for the built-in library. */
    musercode: text().references(() => muser.musercode, { onDelete: 'cascade' }),
    formname: text().notNull(),
    formnameen: text().notNull().default(''),
    formtype: text().notNull(),
    /** Population apps the scale is meant for. */
    appids: jsonb().$type<string[]>().notNull().default([]),
    /** The current version: new results are scored with it. */
    version: integer().notNull().default(1),
    /**
     * Counts every saved edit of the definition (a version is rewritten in place while it has no
     * results, so the version alone does not tell edits apart). An edit names the revision it was
     * based on and is written only if that is still the current one (scales/store.ts).
     */
    revision: integer().notNull().default(0),
    enabled: integer().notNull().default(1),
    licence: text().notNull().default(''),
    licenceen: text().notNull().default(''),
    source: text().notNull().default(''),
    /** Sizes of the current definition, kept here so the library list never reads a definition. */
    questioncount: integer().notNull().default(0),
    indicatorcount: integer().notNull().default(0),
    /** The form this one was copied from (built-in or own). */
    copiedfrom: text(),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('form_muser_idx').on(t.musercode)],
);

/**
 * One version of a scale's definition (the contract's definition model) WITHOUT its score
 * bands: questions, indicators with formulas, critical-item and validity rules as jsonb.
 * A version that has results is never changed again; editing it writes version + 1.
 */
export const formVersion = pgTable(
  'form_version',
  {
    formcode: text()
      .notNull()
      .references(() => form.formcode, { onDelete: 'cascade' }),
    version: integer().notNull(),
    definition: jsonb().$type<Record<string, unknown>>().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.formcode, t.version] })],
);

/**
 * Score bands ("quota options") of an indicator, per form version. They have their own table,
 * not a place inside the definition jsonb, because as.m.assess.quota.* and the comments
 * database edit and list them one by one: each band needs an id that stays put when a
 * neighbour is inserted or deleted, and the comments list filters and pages them across forms.
 * A new version copies the rows with the SAME optionid, so an id names "this band" in whichever
 * version is current. The band body is the definition model's band object.
 */
export const quotaOption = pgTable(
  'quota_option',
  {
    optionid: text().notNull(),
    formcode: text().notNull(),
    version: integer().notNull(),
    quotacode: text().notNull(),
    sort: integer().notNull().default(0),
    band: jsonb().$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.optionid, t.version] }),
    index('quota_option_form_idx').on(t.formcode, t.version),
  ],
);

/**
 * An institution's scoring convention per form (issue 31 §1): which of the form's `conventions`
 * (e.g. SDS standard score rounded, cut-offs 50/60/70) its reports are scored with. No row: the
 * form's default (its first convention). Applied at scoring time; each report keeps the one used.
 */
export const formConvention = pgTable(
  'form_convention',
  {
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    formcode: text().notNull(),
    code: text().notNull(),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.musercode, t.formcode] })],
);

/**
 * A norm (常模) of a form for one population (issue 31 §2): mean and SD per indicator, the sample,
 * year and source, and the rule reliable change uses (reliability with its source, cut-off,
 * direction). Platform reference data kept by the super account: every institution reads them.
 * `builtin` names the norms the library ships (scales/norms-library.ts), synced at every start by
 * their stable id. One default norm per form (partial unique index).
 */
export const norm = pgTable(
  'norm',
  {
    normid: text().primaryKey(),
    formcode: text()
      .notNull()
      .references(() => form.formcode, { onDelete: 'cascade' }),
    name: jsonb().$type<{ zh: string; en: string }>().notNull(),
    population: jsonb().$type<{ zh: string; en: string }>().notNull(),
    samplesize: integer().notNull(),
    year: integer().notNull(),
    source: text().notNull(),
    scales: jsonb().$type<{ code: string; mean: number; sd: number }[]>().notNull(),
    change: jsonb().$type<{ code: string; reliability: number; reliabilitysource: string; cutoff: number | null; higherworse: boolean } | null>(),
    isdefault: integer().notNull().default(0),
    builtin: integer().notNull().default(0),
    updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('norm_form_idx').on(t.formcode), uniqueIndex('norm_default_uq').on(t.formcode).where(sql`${t.isdefault} = 1`)],
);
