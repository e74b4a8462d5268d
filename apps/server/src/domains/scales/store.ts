import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { FormBrief, FormDefinition, Lang } from '@xinli/contract';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.js';
import type { Caller } from '../../http/context.js';
import { conflict, notFound } from '../../http/errors.js';
import { scopeWhere } from '../auth/index.js';
import { newId, outerColumn, ownCopy, preparedForKeys, preparedOnce, referenceRead, statementsForKeys, type Bindable } from '../../kit/index.js';
import { scaleHooks } from './hooks.js';
import { form, formVersion, quotaOption } from './tables.js';
import { textlessSql } from './item-text.js';

/** Forms a caller may read: the built-in library and its scope's own. */
export const formReadable = (caller: Caller): SQL => or(isNull(form.musercode), scopeWhere(form.musercode, caller))!;

/** The form name in the caller's language (English falls back to Chinese until translated). */
export const formNameIn = (lang: Lang): SQL<string> =>
  lang === 'en-US' ? sql<string>`coalesce(nullif(${form.formnameen}, ''), ${form.formname})` : sql<string>`${form.formname}`;

/** A form's name in `lang` as formBriefs gives it (its code if there is no such form), as a column of another domain's query. */
export const formNameOf = (formcode: AnyPgColumn, lang: Lang): SQL<string> =>
  sql<string>`coalesce((select ${formNameIn(lang)} from ${form} where ${form.formcode} = ${outerColumn(formcode)}), ${formcode})`;

/** Brief rows of the given forms (no scope check: callers check the form or the plan holding it); kept (kit/reference-reads: every respondent's sign-in lists its forms). */
export async function formBriefs(db: DbOrTx, formcodes: string[], lang: Lang): Promise<Map<string, FormBrief>> {
  if (!formcodes.length) return new Map();
  return keptBriefs(db, [...new Set(formcodes)], lang);
}
const keptBriefs = referenceRead(
  'form_briefs',
  (codes: string[], lang: Lang) => `${lang}\u0001${codes.join('\u0001')}`,
  async (db, codes: string[], lang: Lang) => {
    const rows = await briefsRead(db, { lang }, codes);
    return new Map(rows.map((r) => [r.formcode, { ...r, builtin: !!r.builtin, textless: !!r.textless }]));
  },
);
/** Prepared, one statement a language: every respondent's sign-in lists its forms. */
const briefsRead = statementsForKeys('form_briefs', (db, { lang }: { lang: Lang }, name, keyIs) =>
  db
    .select({
      formcode: form.formcode,
      formname: formNameIn(lang),
      formtype: form.formtype,
      version: form.version,
      questioncount: form.questioncount,
      builtin: sql<boolean>`(${form.musercode} is null)`,
      enabled: form.enabled,
      textless: textlessSql,
    })
    .from(form)
    .where(keyIs(form.formcode))
    .prepare(name),
);

/** The forms meant for one population app (the form's appids hold it); the app a value or a placeholder. */
export const formOfApp = (appid: Bindable<string>): SQL => sql`${form.appids} @> jsonb_build_array(${appid}::text)`;

/** Brief rows of readable forms, enabled ones only, optionally of one population app. */
export async function readableFormBriefs(db: DbOrTx, caller: Caller, lang: Lang, filter: { appid?: string } = {}): Promise<FormBrief[]> {
  const rows = await db
    .select({ formcode: form.formcode })
    .from(form)
    .where(and(formReadable(caller), eq(form.enabled, 1), filter.appid ? formOfApp(filter.appid) : undefined))
    .orderBy(sql`${form.musercode} is not null`, asc(form.formname));
  const briefs = await formBriefs(db, rows.map((r) => r.formcode), lang);
  return rows.map((r) => briefs.get(r.formcode)!).filter(Boolean);
}

/** Checks that every form exists and the caller may read it; an unknown or foreign one answers notFound. */
export async function assertFormsReadable(db: DbOrTx, caller: Caller, formcodes: string[]): Promise<void> {
  const unique = [...new Set(formcodes)];
  if (!unique.length) return;
  const rows = await db.select({ formcode: form.formcode }).from(form).where(and(inArray(form.formcode, unique), formReadable(caller)));
  if (rows.length !== unique.length) {
    const found = new Set(rows.map((r) => r.formcode));
    const missing = unique.filter((c) => !found.has(c)).join(', ');
    notFound({ zh: `量表不存在：${missing}`, en: `No such form: ${missing}` });
  }
}

/**
 * A stored version put back together: the definition body with each indicator's bands from
 * quota_option (see tables.ts for why bands live there).
 */
/** A form's questions as whoever fills it in sees them (a respondent, a registration): no scores, bands or rules. */
export function questionsOf(def: FormDefinition) {
  return def.questions.map((q) => ({
    no: q.no,
    type: q.type,
    ...(q.inputtype === undefined ? {} : { inputtype: q.inputtype }),
    required: q.required,
    text: q.text,
    options: q.options.map((o) => ({ text: o.text })),
    ...(q.range ? { range: q.range } : {}),
  }));
}

export async function loadDefinition(db: DbOrTx, formcode: string, version: number): Promise<FormDefinition> {
  const [v] = await db
    .select({ definition: formVersion.definition })
    .from(formVersion)
    .where(and(eq(formVersion.formcode, formcode), eq(formVersion.version, version)));
  if (!v) return notFound();
  const bands = await db
    .select({ quotacode: quotaOption.quotacode, band: quotaOption.band })
    .from(quotaOption)
    .where(and(eq(quotaOption.formcode, formcode), eq(quotaOption.version, version)))
    .orderBy(asc(quotaOption.quotacode), asc(quotaOption.sort));
  const def = structuredClone(v.definition) as unknown as FormDefinition;
  for (const ind of def.indicators ?? []) {
    ind.bands = bands.filter((b) => b.quotacode === ind.code).map((b) => b.band as unknown as FormDefinition['indicators'][number]['bands'][number]);
  }
  return def;
}

/**
 * Current definitions read outside a transaction, by form, version, revision and the form row's
 * last change (issue 33 §3: every submission of a class read and rebuilt the same definition from
 * form_version and quota_option). Any save of a definition moves the revision and the time, and the
 * head row is read every time, so a changed form is never served from here; a form deleted and
 * created again under its code has another time. Inside a transaction nothing is kept: what it
 * read may yet be rolled back.
 */
const current = new Map<string, FormDefinition>();
const CURRENT_MAX = 500;

/** The head of a form as the cache keys it. */
const headColumns = { formcode: form.formcode, version: form.version, revision: form.revision, updatedat: form.updatedat };
type Head = { formcode: string; version: number; revision: number; updatedat: Date };

/** The definition of a form's current version (a copy: callers may change what they are given). */
async function currentDefinition(db: DbOrTx, h: Head): Promise<FormDefinition> {
  const keep = !(db instanceof PgTransaction);
  const key = `${h.formcode}\u0000${h.version}\u0000${h.revision}\u0000${h.updatedat.getTime()}`;
  let def = keep ? current.get(key) : undefined;
  if (!def) {
    def = await loadDefinition(db, h.formcode, h.version);
    if (keep) {
      if (current.size >= CURRENT_MAX) current.clear();
      current.set(key, def);
    }
  }
  return ownCopy(def);
}

/** Prepared: every submission checks its form's head. */
const headsRead = preparedForKeys('form_heads', (db, name, keyIs) => db.select(headColumns).from(form).where(keyIs(form.formcode)).prepare(name));

/** The current definitions of several forms; kept outside a transaction (kit/reference-reads: every submission scores with its form's). */
export async function loadCurrentDefinitions(db: DbOrTx, formcodes: string[]): Promise<Map<string, FormDefinition>> {
  const unique = [...new Set(formcodes)];
  if (!unique.length) return new Map();
  return keptDefinitions(db, unique);
}
const keptDefinitions = referenceRead(
  'current_definitions',
  (codes: string[]) => codes.join('\u0001'),
  async (db, codes: string[]) => {
    const heads = await headsRead(db, codes);
    const out = new Map<string, FormDefinition>();
    for (const h of heads) out.set(h.formcode, await currentDefinition(db, h));
    return out;
  },
);

/** A stored version with the ids of its bands (quotacode -> optionid per band, in order). */
export interface Stored {
  def: FormDefinition;
  ids: Map<string, string[]>;
}

export async function loadStored(db: DbOrTx, formcode: string, version: number): Promise<Stored> {
  const def = await loadDefinition(db, formcode, version);
  const rows = await db
    .select({ optionid: quotaOption.optionid, quotacode: quotaOption.quotacode })
    .from(quotaOption)
    .where(and(eq(quotaOption.formcode, formcode), eq(quotaOption.version, version)))
    .orderBy(asc(quotaOption.quotacode), asc(quotaOption.sort));
  const ids = new Map<string, string[]>();
  for (const r of rows) ids.set(r.quotacode, [...(ids.get(r.quotacode) ?? []), r.optionid]);
  return { def, ids };
}

/** The definition body kept in form_version: the definition with every indicator's bands moved out. */
function bodyOf(def: FormDefinition): Record<string, unknown> {
  return { ...def, indicators: def.indicators.map((ind) => ({ ...ind, bands: [] })) };
}

async function writeBands(tx: DbOrTx, formcode: string, version: number, def: FormDefinition, ids: Map<string, string[]>) {
  const rows = def.indicators.flatMap((ind) =>
    ind.bands.map((band, sort) => ({ optionid: ids.get(ind.code)?.[sort] ?? newId('QO'), formcode, version, quotacode: ind.code, sort, band: band as unknown as Record<string, unknown> })),
  );
  if (rows.length) await tx.insert(quotaOption).values(rows);
}

/** Header columns of the form row that mirror the current definition (the library filters on and shows them). */
export const headerOf = (def: FormDefinition) => ({
  formname: def.formname.zh,
  formnameen: def.formname.en,
  formtype: def.formtype,
  appids: def.appids,
  licence: def.licence.zh,
  licenceen: def.licence.en,
  source: def.source,
  questioncount: def.questions.length,
  indicatorcount: def.indicators.length,
});

/** Writes a brand-new form at version 1 (ids: band ids to keep, e.g. the library's stable ones). */
export async function createForm(tx: DbOrTx, formcode: string, musercode: string | null, def: FormDefinition, now: Date, ids = new Map<string, string[]>(), copiedfrom: string | null = null) {
  const version = def.version;
  const full = { ...def, formcode, version };
  await tx.insert(form).values({ formcode, musercode, ...headerOf(full), version, copiedfrom, createdat: now, updatedat: now });
  await tx.insert(formVersion).values({ formcode, version, definition: bodyOf(full), createdat: now });
  await writeBands(tx, formcode, version, full, ids);
}

/**
 * Saves a changed definition of a form. The current version is rewritten in place while no
 * result uses it; once results exist it is frozen and the change becomes version + 1, so every
 * result keeps reading the version it was scored with. Saving an unchanged definition writes
 * nothing (so it never freezes a new version needlessly). Returns the version now current.
 */
export async function reviseForm(
  tx: DbOrTx,
  head: { formcode: string; version: number; revision?: number },
  def: FormDefinition,
  ids: Map<string, string[]>,
  now: Date,
  toVersion?: number,
): Promise<number> {
  if (toVersion === undefined) {
    // Two editors saving at once: the row lock orders them, and the one whose edit was based on a
    // revision (or version) that is no longer current is told to reload instead of overwriting.
    // The revision counts every saved edit, so this holds for edits rewritten in place too (12
    // parallel edits of one revision: one saved, 11 conflicts).
    const [locked] = await tx.select({ version: form.version, revision: form.revision }).from(form).where(eq(form.formcode, head.formcode)).for('update');
    const stale = !locked || locked.version !== head.version || (head.revision !== undefined && locked.revision !== head.revision);
    if (stale) conflict({ zh: '量表已被他人修改，请刷新后重试', en: 'The scale was changed meanwhile: reload it and try again' });
    const current = await loadStored(tx, head.formcode, head.version);
    const same = (d: FormDefinition) => canonical({ ...d, formcode: head.formcode, version: 0 });
    if (same(current.def) === same(def)) return head.version;
  }
  const frozen = (await scaleHooks().resultCount(tx, head.formcode, head.version)) > 0;
  const version = toVersion ?? (frozen ? head.version + 1 : head.version);
  const full = { ...def, formcode: head.formcode, version };
  if (version === head.version) {
    await tx.update(formVersion).set({ definition: bodyOf(full) }).where(and(eq(formVersion.formcode, head.formcode), eq(formVersion.version, version)));
    await tx.delete(quotaOption).where(and(eq(quotaOption.formcode, head.formcode), eq(quotaOption.version, version)));
  } else {
    await tx.insert(formVersion).values({ formcode: head.formcode, version, definition: bodyOf(full), createdat: now });
  }
  await writeBands(tx, head.formcode, version, full, ids);
  await tx.update(form).set({ ...headerOf(full), version, revision: sql`${form.revision} + 1`, updatedat: now }).where(eq(form.formcode, head.formcode));
  return version;
}

/** JSON with object keys sorted, so a definition read back from jsonb compares equal to its source. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/**
 * The user-archive form (type 02) of a population app for an institution: its own enabled one
 * first, then its provider's, then the built-in one; null when there is none. The persons domain
 * checks archive answers against it and builds archive columns from it.
 */
export const archiveFormOf = referenceRead(
  'archive_form',
  (musercode: string, appid: string) => `${musercode}\u0001${appid}`,
  async (db, musercode: string, appid: string): Promise<{ formcode: string; version: number; definition: FormDefinition } | null> => {
    const [row] = await archiveHeadRead(db).execute({ musercode, appid });
    if (!row) return null;
    return { formcode: row.formcode, version: row.version, definition: await currentDefinition(db, row) };
  },
);
/** Prepared: every respondent's sign-in looks for its archive form. */
const archiveHeadRead = preparedOnce('archive_form_head', (db, name) => {
  const musercode = sql.placeholder('musercode');
  return db
    .select(headColumns)
    .from(form)
    .where(
      and(
        eq(form.formtype, '02'),
        eq(form.enabled, 1),
        formOfApp(sql.placeholder('appid')),
        or(isNull(form.musercode), eq(form.musercode, musercode), sql`${form.musercode} = (select parentcode from muser where musercode = ${musercode})`),
      ),
    )
    .orderBy(sql`case when ${form.musercode} = ${musercode} then 0 when ${form.musercode} is not null then 1 else 2 end`, asc(form.formcode))
    .limit(1)
    .prepare(name);
});

/**
 * The enabled registration forms (type 03) an institution may use, in the order it prefers
 * them: its own, then its provider's, then the built-in ones. The first is the one its QR entry
 * offers for requesting a consultation.
 */
export async function registrationFormsOf(db: DbOrTx, musercode: string, lang: Lang): Promise<FormBrief[]> {
  const rows = await db
    .select({ formcode: form.formcode })
    .from(form)
    .where(
      and(
        eq(form.formtype, '03'),
        eq(form.enabled, 1),
        or(isNull(form.musercode), eq(form.musercode, musercode), sql`${form.musercode} = (select parentcode from muser where musercode = ${musercode})`),
      ),
    )
    .orderBy(sql`case when ${form.musercode} = ${musercode} then 0 when ${form.musercode} is not null then 1 else 2 end`, asc(form.formcode));
  const briefs = await formBriefs(db, rows.map((r) => r.formcode), lang);
  return rows.map((r) => briefs.get(r.formcode)!).filter(Boolean);
}
