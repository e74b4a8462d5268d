import { and, asc, eq, sql } from 'drizzle-orm';
import { bandColour, type BandDefinition, type FormDefinition } from '@xinli/contract';
import type { HandlerMap } from '../../http/handlers.js';
import type { Ctx } from '../../http/context.js';
import { denied, notFound } from '../../http/errors.js';
import { assertInScope } from '../auth/index.js';
import { checkDefinition, findForm } from './access.js';
import { contains, newId, paged } from '../../kit/index.js';
import { formNameIn, formReadable, loadStored, reviseForm } from './store.js';
import { form, formVersion, quotaOption } from './tables.js';

const pick = (ctx: Ctx, t: { zh: string; en: string }) => (ctx.lang === 'en-US' && t.en ? t.en : t.zh);

interface Pair {
  optionid: string;
  band: BandDefinition;
}

/** The band (of the current version) an option id names; `write` demands an own form. */
async function findOption(ctx: Ctx, optionid: string, write: boolean) {
  const [row] = await ctx.db
    .select({ formcode: form.formcode, version: form.version, musercode: form.musercode, quotacode: quotaOption.quotacode })
    .from(quotaOption)
    .innerJoin(form, and(eq(form.formcode, quotaOption.formcode), eq(form.version, quotaOption.version)))
    .where(and(eq(quotaOption.optionid, optionid), formReadable(ctx.me)));
  if (!row) return notFound({ zh: '分段不存在', en: 'No such score band' });
  if (write) {
    if (row.musercode === null) denied({ zh: '内置量表只读，请复制后再修改', en: 'Built-in scales are read-only: copy it to make changes' });
    assertInScope(ctx.me, row.musercode);
  }
  return row;
}

/**
 * Changes the bands of one indicator of an own form, checks the whole definition with the
 * engine (bands must still tile the score range) and saves it by the version rule.
 */
async function changeBands(ctx: Ctx, formcode: string, quotacode: string, change: (pairs: Pair[]) => Pair[]) {
  const head = await findForm(ctx, ctx.db, formcode, true);
  const stored = await loadStored(ctx.db, formcode, head.version);
  const ind = stored.def.indicators.find((i) => i.code === quotacode);
  if (!ind) return notFound({ zh: `指标不存在：${quotacode}`, en: `No such indicator: ${quotacode}` });
  const ids = stored.ids.get(quotacode) ?? [];
  const pairs = change(ind.bands.map((band, i) => ({ optionid: ids[i] ?? newId('QO'), band }))).sort((a, b) => a.band.min - b.band.min);
  const next: FormDefinition = { ...stored.def, indicators: stored.def.indicators.map((i) => (i.code === quotacode ? { ...i, bands: pairs.map((p) => p.band) } : i)) };
  const def = checkDefinition(next);
  const allIds = new Map(stored.ids);
  allIds.set(quotacode, pairs.map((p) => p.optionid));
  const version = await ctx.db.transaction((tx) => reviseForm(tx, head, def, allIds, ctx.now()));
  return { formcode, version };
}

export const quotaHandlers = {
  'as.m.assess.quota.getQuotaFormOptionList': async ({ formcode, quotacode, version }, ctx) => {
    const head = await findForm(ctx, ctx.db, formcode, false);
    const v = version ?? head.version;
    const { def, ids } = await loadStored(ctx.db, formcode, v);
    return def.indicators
      .filter((ind) => !quotacode || ind.code === quotacode)
      .flatMap((ind) =>
        ind.bands.map((band, sort) => ({ optionid: ids.get(ind.code)?.[sort] ?? '', formcode, version: v, quotacode: ind.code, quotaname: pick(ctx, ind.name), sort, band, colour: bandColour(band) })),
      );
  },

  'as.m.assess.quota.insertQuotaFormOption': async ({ formcode, quotacode, band }, ctx) => {
    const optionid = newId('QO');
    const out = await changeBands(ctx, formcode, quotacode, (pairs) => [...pairs, { optionid, band }]);
    await ctx.audit({ result: 'ok', detail: { ...out, quotacode, optionid } });
    return { ...out, optionid };
  },

  'as.m.assess.quota.updateQuotaFormOption': async ({ optionid, band }, ctx) => {
    const opt = await findOption(ctx, optionid, true);
    const patch = Object.fromEntries(Object.entries(band).filter(([, v]) => v !== undefined));
    const out = await changeBands(ctx, opt.formcode, opt.quotacode, (pairs) => pairs.map((p) => (p.optionid === optionid ? { optionid, band: { ...p.band, ...patch } } : p)));
    await ctx.audit({ result: 'ok', detail: { ...out, optionid } });
    return out;
  },

  'as.m.assess.quota.deleteQuotaFormOption': async ({ optionid }, ctx) => {
    const opt = await findOption(ctx, optionid, true);
    const out = await changeBands(ctx, opt.formcode, opt.quotacode, (pairs) => pairs.filter((p) => p.optionid !== optionid));
    await ctx.audit({ result: 'ok', detail: { ...out, optionid } });
    return out;
  },

  'as.m.assess.quota.saveQuotaFormOptions': async ({ formcode, quotacode, options }, ctx) => {
    const out = await changeBands(ctx, formcode, quotacode, (pairs) => {
      const known = new Set(pairs.map((p) => p.optionid));
      const stray = options.find((o) => o.optionid && !known.has(o.optionid));
      if (stray) notFound({ zh: `分段不存在：${stray.optionid}`, en: `No such score band: ${stray.optionid}` });
      return options.map((o) => ({ optionid: o.optionid ?? newId('QO'), band: o.band }));
    });
    await ctx.audit({ result: 'ok', detail: { ...out, quotacode } });
    return out;
  },

  'as.m.assess.comment.getCommentPageList': async ({ formname, formcode, level, builtin, page, pageSize }, ctx) => {
    if (formcode) await findForm(ctx, ctx.db, formcode, false);
    const where = and(
      formReadable(ctx.me),
      contains([form.formname, form.formnameen], formname),
      formcode ? eq(form.formcode, formcode) : undefined,
      level === undefined ? undefined : sql`(${quotaOption.band}->>'level')::int = ${level}`,
      builtin === undefined ? undefined : builtin ? sql`${form.musercode} is null` : sql`${form.musercode} is not null`,
    );
    const query = ctx.db
      .select({
        optionid: quotaOption.optionid,
        formcode: form.formcode,
        formname: formNameIn(ctx.lang),
        builtin: sql<boolean>`(${form.musercode} is null)`,
        version: form.version,
        quotacode: quotaOption.quotacode,
        quotaname: sql<{ zh: string; en: string } | null>`(select i->'name' from jsonb_array_elements(${formVersion.definition}->'indicators') i where i->>'code' = ${quotaOption.quotacode} limit 1)`,
        band: quotaOption.band,
      })
      .from(quotaOption)
      .innerJoin(form, and(eq(form.formcode, quotaOption.formcode), eq(form.version, quotaOption.version)))
      .innerJoin(formVersion, and(eq(formVersion.formcode, form.formcode), eq(formVersion.version, form.version)))
      .where(where)
      .$dynamic();
    const order = [sql`${form.musercode} is null`, asc(form.formname), asc(form.formcode), asc(quotaOption.quotacode), asc(quotaOption.sort)];
    const { total, rows } = await paged(ctx.db, query, order, { page, pageSize });
    return {
      total,
      rows: rows.map((r) => {
        const b = r.band as unknown as BandDefinition;
        return {
          optionid: r.optionid,
          formcode: r.formcode,
          formname: r.formname,
          builtin: !!r.builtin,
          version: r.version,
          quotacode: r.quotacode,
          quotaname: r.quotaname ? pick(ctx, r.quotaname) : r.quotacode,
          min: b.min,
          max: b.max,
          level: b.level,
          label: pick(ctx, b.label),
          interpretation: b.interpretation,
          advice: b.advice,
          raisesWarning: b.raisesWarning,
        };
      }),
    };
  },

  'as.m.assess.comment.updateComment': async ({ optionid, interpretation, advice }, ctx) => {
    const opt = await findOption(ctx, optionid, true);
    const out = await changeBands(ctx, opt.formcode, opt.quotacode, (pairs) =>
      pairs.map((p) => (p.optionid === optionid ? { optionid, band: { ...p.band, ...(interpretation ? { interpretation } : {}), ...(advice ? { advice } : {}) } } : p)),
    );
    await ctx.audit({ result: 'ok', detail: { ...out, optionid } });
    return out;
  },
} satisfies HandlerMap;
