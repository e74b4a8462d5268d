import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FormDefinition } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { accountNames, ownerAccount } from '../accounts/index.js';
import { preparedOnce, referenceRead } from '../../kit/index.js';
import { loadCurrentDefinitions } from './store.js';
import { form, formConvention } from './tables.js';

/**
 * An institution's scoring conventions (issue 31 §1): for each form that offers several (SDS/SAS:
 * cut-offs 53 or 50, standard score truncated or rounded; an own scale may offer its own), which
 * one its reports are scored with. Applied when a sheet is scored; the report keeps the one used.
 */

/** The institution's chosen convention per form code (forms it left on the default are absent); kept (kit/reference-reads). */
export const conventionChoices = referenceRead(
  'convention_choices',
  (musercode: string) => musercode,
  async (db, musercode: string): Promise<Map<string, string>> => {
    const rows = await choicesRead(db).execute({ musercode });
    return new Map(rows.map((r) => [r.formcode, r.code]));
  },
);
/** Prepared: every submission is scored with its institution's conventions. */
const choicesRead = preparedOnce('convention_choices', (db, name) =>
  db.select({ formcode: formConvention.formcode, code: formConvention.code }).from(formConvention).where(eq(formConvention.musercode, sql.placeholder('musercode'))).prepare(name),
);

/**
 * Refuses a new definition that drops (or renames) a convention an institution has chosen. Its
 * sheets would otherwise go on being scored with other cut-offs than the ones it chose, with no one
 * at the institution having decided it; the choice is changed first in the scale library (audited),
 * then the convention can go. Called under the form's row lock (reviseForm), which setConvention
 * also takes, so a choice cannot slip in between the check and the save.
 */
export async function assertChosenConventionsKept(tx: DbOrTx, formcode: string, before: FormDefinition, after: FormDefinition): Promise<void> {
  const kept = new Set(after.conventions.map((c) => c.code));
  const removed = before.conventions.filter((c) => !kept.has(c.code));
  if (!removed.length) return;
  const rows = await tx
    .select({ musercode: formConvention.musercode, code: formConvention.code })
    .from(formConvention)
    .where(and(eq(formConvention.formcode, formcode), inArray(formConvention.code, removed.map((c) => c.code))));
  if (!rows.length) return;
  const names = await accountNames(tx, rows.map((r) => r.musercode));
  const who = [...new Set(rows.map((r) => names.get(r.musercode) ?? r.musercode))].join('、');
  const which = removed.filter((c) => rows.some((r) => r.code === c.code));
  conflict({
    zh: `计分约定“${which.map((c) => c.name.zh).join('、')}”（${which.map((c) => c.code).join('、')}）正被${who}选用，不能删除或改代码：请先在量表库的“计分约定”中改选其他约定，再保存`,
    en: `The scoring convention "${which.map((c) => c.name.en || c.name.zh).join('", "')}" (${which.map((c) => c.code).join(', ')}) is chosen by ${who.replaceAll('、', ', ')}: it cannot be removed or have its code changed. Choose another convention in the scale library first, then save`,
  });
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
    const now = ctx.now();
    const old = await ctx.db.transaction(async (tx) => {
      // The form's row lock (shared) orders this choice with an edit removing the convention (assertChosenConventionsKept).
      const [row] = await tx.select({ formcode: form.formcode }).from(form).where(and(eq(form.formcode, formcode), ownOrBuiltIn(owner.musercode))).for('share');
      if (!row) notFound({ zh: `量表不存在：${formcode}`, en: `No such form: ${formcode}` });
      const def = (await loadCurrentDefinitions(tx, [formcode])).get(formcode)!;
      if (!def.conventions.some((c) => c.code === code))
        invalid({ zh: `量表 ${formcode} 没有计分约定 ${code}`, en: `Form ${formcode} has no scoring convention ${code}` });
      const before = (await conventionChoices(tx, owner.musercode)).get(formcode) ?? def.conventions[0].code;
      await tx
        .insert(formConvention)
        .values({ musercode: owner.musercode, formcode, code, updatedat: now })
        .onConflictDoUpdate({ target: [formConvention.musercode, formConvention.formcode], set: { code, updatedat: now } });
      return before;
    });
    await ctx.audit({ result: 'ok', detail: { target: owner.musercode, formcode, old, new: code } });
    return null;
  },
} satisfies HandlerMap;
