import { and, eq, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid, notFound } from '../../http/errors.js';
import { ownerAccount } from '../accounts/index.js';
import { loadCurrentDefinitions } from './store.js';
import { form, formConvention } from './tables.js';

/**
 * An institution's scoring conventions (issue 31 §1): for each form that offers several (SDS/SAS:
 * cut-offs 53 or 50, standard score truncated or rounded; an own scale may offer its own), which
 * one its reports are scored with. Applied when a sheet is scored; the report keeps the one used.
 */

/** The institution's chosen convention per form code (forms it left on the default are absent). */
export async function conventionChoices(db: DbOrTx, musercode: string): Promise<Map<string, string>> {
  const rows = await db.select().from(formConvention).where(eq(formConvention.musercode, musercode));
  return new Map(rows.map((r) => [r.formcode, r.code]));
}

/** The forms an institution scores with: the built-in library and its own. */
const ownOrBuiltIn = (musercode: string) => or(isNull(form.musercode), eq(form.musercode, musercode));

export const conventionHandlers = {
  'as.m.assess.forms.getConventions': async ({ musercode }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const rows = await ctx.db.select({ formcode: form.formcode }).from(form).where(ownOrBuiltIn(owner.musercode)).orderBy(form.formcode);
    const defs = await loadCurrentDefinitions(
      ctx.db,
      rows.map((r) => r.formcode),
    );
    const chosen = await conventionChoices(ctx.db, owner.musercode);
    const forms = rows
      .map((r) => defs.get(r.formcode))
      .filter((d) => d !== undefined && d.conventions.length > 1)
      .map((d) => ({
        formcode: d!.formcode,
        formname: d!.formname,
        conventions: d!.conventions.map((c) => ({ code: c.code, name: c.name, source: c.source })),
        code: d!.conventions.find((c) => c.code === chosen.get(d!.formcode))?.code ?? d!.conventions[0].code,
      }));
    return { musercode: owner.musercode, forms };
  },

  'as.m.assess.forms.setConvention': async ({ musercode, formcode, code }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const [row] = await ctx.db.select({ formcode: form.formcode }).from(form).where(and(eq(form.formcode, formcode), ownOrBuiltIn(owner.musercode)));
    if (!row) notFound({ zh: `量表不存在：${formcode}`, en: `No such form: ${formcode}` });
    const def = (await loadCurrentDefinitions(ctx.db, [formcode])).get(formcode)!;
    if (!def.conventions.some((c) => c.code === code))
      invalid({ zh: `量表 ${formcode} 没有计分约定 ${code}`, en: `Form ${formcode} has no scoring convention ${code}` });
    const now = ctx.now();
    const old = (await conventionChoices(ctx.db, owner.musercode)).get(formcode) ?? def.conventions[0].code;
    await ctx.db
      .insert(formConvention)
      .values({ musercode: owner.musercode, formcode, code, updatedat: now })
      .onConflictDoUpdate({ target: [formConvention.musercode, formConvention.formcode], set: { code, updatedat: now } });
    await ctx.audit({ result: 'ok', detail: { target: owner.musercode, formcode, old, new: code } });
    return null;
  },
} satisfies HandlerMap;
