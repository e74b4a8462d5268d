import type { FormDefinition, Lang } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid, notFound } from '../../http/errors.js';
import { accountInScope } from '../accounts/index.js';
import { assertFormsReadable, loadCurrentDefinitions, questionsOf, registrationFormsOf } from '../scales/index.js';

/** Registration forms (formtype 03): which an institution may use, and a form as it is filled in. */

export const noSuchForm = () => notFound({ zh: '登记表不存在或不可用', en: 'No such registration form, or it may not be used here' });
/** A form the caller can read that is not a registration form usable here. */
export const notRegistrationForm = () =>
  invalid({ zh: '该量表不是本机构可用的登记表', en: 'This form is not a registration form this institution may use' });

/** A registration form as it is filled in: questions and options only. */
export const formDetail = (def: FormDefinition) => ({
  formcode: def.formcode,
  formname: def.formname,
  formtype: def.formtype,
  version: def.version,
  instructions: def.instructions,
  questions: questionsOf(def),
});

/** The current definition of a registration form an institution may use, or "not found". */
export async function usableForm(
  db: DbOrTx,
  musercode: string,
  formcode: string,
  lang: Lang,
  refuse: () => never = noSuchForm,
): Promise<FormDefinition> {
  const usable = await registrationFormsOf(db, musercode, lang);
  if (!usable.some((f) => f.formcode === formcode)) return refuse();
  return (await loadCurrentDefinitions(db, [formcode])).get(formcode) ?? refuse();
}

export const registrationFormHandlers = {
  'as.m.registration.getRegistrationForms': async ({ musercode }, ctx) => {
    const account = musercode ? await accountInScope(ctx, ctx.db, musercode) : { musercode: ctx.me.musercode };
    const forms = await registrationFormsOf(ctx.db, account.musercode, ctx.lang);
    return forms.map((f) => ({ formcode: f.formcode, formname: f.formname, version: f.version, builtin: f.builtin }));
  },

  'as.m.registration.getRegistrationForm': async ({ formcode }, ctx) => {
    await assertFormsReadable(ctx.db, ctx.me, [formcode]);
    const def = (await loadCurrentDefinitions(ctx.db, [formcode])).get(formcode);
    if (!def || def.formtype !== '03') return notRegistrationForm();
    return formDetail(def);
  },
} satisfies HandlerMap;
