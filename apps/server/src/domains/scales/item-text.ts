import { and, inArray, sql } from 'drizzle-orm';
import type { FormDefinition } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { invalid, type Message } from '../../http/errors.js';
import { form } from './tables.js';

/**
 * A form without its item text: the built-in library ships some instruments whose wording is
 * not licensed to us (EPDS, SCL-90 …) with `fulltext: false` and placeholder items ("第1题 /
 * 选项1"); only their scoring is complete. Such a form must never reach a respondent: answers to
 * placeholders would be scored and raise warnings from nothing. The mark is the definition's
 * `fulltext` flag, which the scale editor shows as "Items are the original wording".
 */
export const lacksItemText = (def: Pick<FormDefinition, 'fulltext'>): boolean => def.fulltext === false;

/**
 * The same rule in SQL, for lists that never load whole definitions (the library list, form
 * briefs): true when the form's current version has `fulltext` false. Used in selects from `form`
 * (written out: drizzle leaves a column unqualified inside a select list).
 */
export const textlessSql = sql<boolean>`coalesce((select (fv.definition->>'fulltext')::boolean = false from form_version fv where fv.formcode = form.formcode and fv.version = form.version), false)`;

export interface TextlessForm {
  formcode: string;
  formname: string;
  formnameen: string;
}

/** The forms among `formcodes` whose current definition lacks its item text, in the order given. */
export async function formsWithoutItemText(db: DbOrTx, formcodes: string[]): Promise<TextlessForm[]> {
  const unique = [...new Set(formcodes)];
  if (!unique.length) return [];
  const rows = await db
    .select({ formcode: form.formcode, formname: form.formname, formnameen: form.formnameen })
    .from(form)
    .where(and(inArray(form.formcode, unique), textlessSql));
  const found = new Map(rows.map((r) => [r.formcode, r]));
  return unique.filter((f) => found.has(f)).map((f) => found.get(f)!);
}

/** Why a plan, stage or goods holding these forms cannot be given, and what staff do about it. */
export function itemTextMessage(forms: TextlessForm[]): Message {
  const zh = forms.map((f) => `「${f.formname}」`).join('、');
  const en = forms.map((f) => `“${f.formnameen || f.formname}”`).join(', ');
  return {
    zh:
      `量表${zh}没有题目原文（平台未获授权，只有“第1题 / 选项1”等占位文字），不能发给受测者。` +
      '取得授权后，请在“量表库”中复制该量表，在量表编辑器中填入题目和选项原文并打开“题目为原文”后保存，再在测评计划中改用这份副本。',
    en:
      `The scale${forms.length > 1 ? 's' : ''} ${en} ${forms.length > 1 ? 'have' : 'has'} no item text (the platform holds no licence for the wording; only placeholders such as “Item 1 / Option 1”), so ${forms.length > 1 ? 'they' : 'it'} cannot be given to respondents. ` +
      'With a licence, copy the scale in the scale library, enter the item and option wording in the scale editor, switch on “Items are the original wording”, save, and use the copy in the plan.',
  };
}

/** Refuses (bad input, nothing written) when any of the forms lacks its item text. */
export async function assertFormsHaveItemText(db: DbOrTx, formcodes: string[]): Promise<void> {
  const textless = await formsWithoutItemText(db, formcodes);
  if (textless.length) invalid(itemTextMessage(textless));
}
