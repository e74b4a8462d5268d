import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { FormDefinition, Lang, normActions, NormRow, ReportNorm } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { denied, invalid, notFound } from '../../http/errors.js';
import { iso, newId, paged, preparedForKeys, referenceRead } from '../../kit/index.js';
import { builtInNorms } from './norms-library.js';
import { againstNorm, changeBasis, type ChangeBasis } from './reliable-change.js';
import { assertFormsReadable, formBriefs, loadCurrentDefinitions } from './store.js';
import { norm } from './tables.js';

/**
 * Norms (常模) of the forms, issue 31 §2: platform reference data, read by every institution and
 * kept by the super account only. Reports, trends and the worsening warning read the form's
 * default norm through the functions below (scales/index.ts).
 */

type NormInput = z.infer<(typeof normActions)['as.m.assess.norm.insertNorm']['input']>;
type NormRecord = typeof norm.$inferSelect;

const pick = (x: { zh: string; en: string }, lang: Lang) => (lang === 'en-US' && x.en ? x.en : x.zh);

/** Only the super account edits norms: an institution or provider holding the code still may not. */
function assertSuper(ctx: Ctx) {
  if (!ctx.me.issuper) denied({ zh: '常模只能由平台超级管理员维护', en: 'Only the platform’s super account maintains norms' });
}

/** Every scale and the change rule name an indicator of the form, each once; the rule's indicator has a norm SD. */
function checkAgainstForm(def: FormDefinition, input: NormInput) {
  const codes = new Set(def.indicators.map((i) => i.code));
  const seen = new Set<string>();
  for (const s of input.scales) {
    if (!codes.has(s.code)) invalid({ zh: `量表没有指标 ${s.code}`, en: `The form has no indicator ${s.code}` });
    if (seen.has(s.code)) invalid({ zh: `指标 ${s.code} 重复`, en: `Indicator ${s.code} is listed twice` });
    seen.add(s.code);
  }
  if (input.change && !seen.has(input.change.code))
    invalid({ zh: `可靠改变所用指标 ${input.change.code} 须有常模均值与标准差`, en: `Reliable change uses ${input.change.code}, which needs a norm mean and SD` });
}

async function currentDefinition(ctx: Ctx, formcode: string): Promise<FormDefinition> {
  await assertFormsReadable(ctx.db, ctx.me, [formcode]);
  return (await loadCurrentDefinitions(ctx.db, [formcode])).get(formcode) ?? notFound();
}

/** Write the norm's fields; a new default first clears the form's other default (the unique index backs it). */
async function writeNorm(tx: DbOrTx, normid: string, input: NormInput, now: Date, create: boolean) {
  if (input.isdefault) await tx.update(norm).set({ isdefault: 0 }).where(and(eq(norm.formcode, input.formcode), ne(norm.normid, normid)));
  const values = { ...input, updatedat: now };
  if (create) await tx.insert(norm).values({ normid, ...values });
  else await tx.update(norm).set(values).where(eq(norm.normid, normid));
}

async function rowsOut(db: DbOrTx, rows: NormRecord[], lang: Lang): Promise<NormRow[]> {
  const formcodes = rows.map((r) => r.formcode);
  const [briefs, defs] = await Promise.all([formBriefs(db, formcodes, lang), loadCurrentDefinitions(db, formcodes)]);
  return rows.map((r) => {
    const names = new Map((defs.get(r.formcode)?.indicators ?? []).map((i) => [i.code, pick(i.name, lang)]));
    return {
      normid: r.normid,
      formcode: r.formcode,
      formname: briefs.get(r.formcode)?.formname ?? r.formcode,
      name: r.name,
      population: r.population,
      samplesize: r.samplesize,
      year: r.year,
      source: r.source,
      scales: r.scales.map((s) => ({ ...s, name: names.get(s.code) ?? s.code })),
      change: r.change,
      isdefault: r.isdefault,
      builtin: r.builtin === 1,
      updatedat: iso(r.updatedat),
    };
  });
}

export const normHandlers = {
  'as.m.assess.norm.getNormPage': async ({ formcode, page, pageSize }, ctx) => {
    if (formcode) await assertFormsReadable(ctx.db, ctx.me, [formcode]);
    const query = ctx.db
      .select()
      .from(norm)
      .where(formcode ? eq(norm.formcode, formcode) : undefined)
      .$dynamic();
    const { total, rows } = await paged(ctx.db, query, [asc(norm.formcode), desc(norm.isdefault), desc(norm.updatedat), asc(norm.normid)], { page, pageSize });
    return { total, rows: await rowsOut(ctx.db, rows, ctx.lang) };
  },

  'as.m.assess.norm.insertNorm': async (input, ctx) => {
    // The form first (another institution's form is "not found", as everywhere), then the super account.
    const def = await currentDefinition(ctx, input.formcode);
    assertSuper(ctx);
    checkAgainstForm(def, input);
    const normid = newId('NM');
    await ctx.db.transaction((tx) => writeNorm(tx, normid, input, ctx.now(), true));
    await ctx.audit({ result: 'ok', detail: { normid, formcode: input.formcode } });
    return { normid };
  },

  'as.m.assess.norm.updateNorm': async ({ normid, ...input }, ctx) => {
    const def = await currentDefinition(ctx, input.formcode);
    assertSuper(ctx);
    const [row] = await ctx.db.select({ formcode: norm.formcode }).from(norm).where(eq(norm.normid, normid));
    if (!row) return notFound({ zh: '常模不存在', en: 'No such norm' });
    if (row.formcode !== input.formcode) invalid({ zh: '常模所属量表不能更改', en: 'A norm’s form cannot be changed' });
    checkAgainstForm(def, input);
    await ctx.db.transaction((tx) => writeNorm(tx, normid, input, ctx.now(), false));
    await ctx.audit({ result: 'ok', detail: { normid, formcode: input.formcode } });
    return null;
  },

  'as.m.assess.norm.deleteNorm': async ({ normid }, ctx) => {
    assertSuper(ctx);
    const [row] = await ctx.db.select({ builtin: norm.builtin }).from(norm).where(eq(norm.normid, normid));
    if (!row) return notFound({ zh: '常模不存在', en: 'No such norm' });
    if (row.builtin)
      invalid({
        zh: '内置常模不能删除；如不再使用，请取消其默认或将另一常模设为默认',
        en: 'A built-in norm cannot be deleted; clear its default or make another norm the default',
      });
    await ctx.db.delete(norm).where(eq(norm.normid, normid));
    await ctx.audit({ result: 'ok', detail: { normid } });
    return null;
  },
} satisfies HandlerMap;

// ---------- for other domains (through scales/index.ts) ----------

/** The default norms of some forms, by formcode. */
async function defaultNorms(db: DbOrTx, formcodes: string[]): Promise<Map<string, NormRecord>> {
  const unique = [...new Set(formcodes)];
  if (!unique.length) return new Map();
  const rows = await defaultsRead(db, unique);
  return new Map(rows.map((r) => [r.formcode, r]));
}
/** Prepared: every submission is judged for reliable change against its form's default norm. */
const defaultsRead = preparedForKeys('default_norms', (db, name, keyIs) =>
  db
    .select()
    .from(norm)
    .where(and(keyIs(norm.formcode), eq(norm.isdefault, 1)))
    .prepare(name),
);

/** What reliable change of a form is judged by (its default norm's rule and SD), or null. Kept (kit/reference-reads: every submission is judged by it). */
export const changeBasisOf = referenceRead(
  'change_basis',
  (formcode: string) => formcode,
  async (db, formcode: string): Promise<ChangeBasis | null> => changeBasis((await defaultNorms(db, [formcode])).get(formcode) ?? null),
);

/** A report's indicators against its form's default norm, or null when the form has none. */
export async function reportAgainstNorm(
  db: DbOrTx,
  formcode: string,
  indicators: { code: string; name: string; score: number }[],
  lang: Lang,
): Promise<ReportNorm | null> {
  const n = (await defaultNorms(db, [formcode])).get(formcode);
  if (!n) return null;
  return {
    normid: n.normid,
    name: pick(n.name, lang),
    population: pick(n.population, lang),
    samplesize: n.samplesize,
    year: n.year,
    source: n.source,
    rows: againstNorm(indicators, n.scales),
  };
}

/** The default norm of each form as plain figures (group reports put a cohort's means beside it). */
export async function normsOfForms(db: DbOrTx, formcodes: string[], lang: Lang) {
  const rows = await defaultNorms(db, formcodes);
  return new Map(
    [...rows].map(([formcode, n]) => [formcode, { name: pick(n.name, lang), population: pick(n.population, lang), source: n.source, year: n.year, samplesize: n.samplesize, scales: n.scales }]),
  );
}

/**
 * Seeds the built-in norms at every start (after the built-in forms): a missing one is written,
 * an existing one is left as the super account keeps it (built-in norms cannot be deleted, so
 * none comes back unasked; clearing its default takes it off the reports).
 */
export async function syncBuiltInNorms(db: DbOrTx, now = new Date()) {
  for (const n of builtInNorms) {
    const [row] = await db.select({ normid: norm.normid }).from(norm).where(eq(norm.normid, n.normid));
    if (row) continue;
    await db.transaction(async (tx) => {
      // The built-in norm is the default only while the form has none (an edited choice stays).
      const [other] = await tx.select({ normid: norm.normid }).from(norm).where(and(eq(norm.formcode, n.formcode), eq(norm.isdefault, 1)));
      await tx.insert(norm).values({ ...n, isdefault: other ? 0 : n.isdefault, builtin: 1, updatedat: now });
    });
  }
}
