import { eq } from 'drizzle-orm';
import type { FormDefinition, Lang } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { openArchive, personInScope } from '../persons/index.js';
import { loadDefinition } from '../scales/index.js';
import { openCaseFromRegistration } from '../warnings/index.js';
import { answersInWords } from './registrations.js';
import { registrationInScope, type RegistrationRecord } from './store.js';
import { registration } from './tables.js';

/** Turning a registration into a warning case (it opens the person's case or joins the open one). */

const alreadyCase = () => conflict({ zh: '该登记已转为个案', en: 'This registration has already been turned into a case' });

/**
 * The person a registration is about: the one it names, or (a respondent registration) the person
 * of its institution that staff match to it now.
 */
async function matchedPerson(ctx: Ctx, row: RegistrationRecord, cusercode: string | undefined): Promise<string> {
  if (row.state === 'case') return alreadyCase();
  // A person named is checked in scope first: another institution's is "not found", whatever the registration says.
  const named = cusercode ? await personInScope(ctx, ctx.db, cusercode) : null;
  if (row.cusercode) {
    if (cusercode && cusercode !== row.cusercode)
      invalid({ zh: '该登记已对应另一位测评对象', en: 'This registration already names another person' });
    return row.cusercode;
  }
  if (!named) return invalid({ zh: '请先选择这位登记人对应的测评对象', en: 'Choose the person this registration is about first' });
  const person = named;
  if (person.musercode !== row.musercode) return notFound({ zh: '测评对象不存在', en: 'No such person' });
  return person.cusercode;
}

/** The warning's reason: the form and the answers in words, within the 500 characters it allows. */
function caseNote(def: FormDefinition, row: RegistrationRecord, lang: Lang): string {
  const name = lang === 'en-US' && def.formname.en ? def.formname.en : def.formname.zh;
  const words = answersInWords(def, openArchive(row.answers), lang)
    .filter((a) => a.answer)
    .map((a) => a.answer)
    .join(lang === 'en-US' ? '; ' : '；');
  const note = lang === 'en-US' ? `Consultation request (${name}): ${words}` : `咨询登记（${name}）：${words}`;
  return note.length > 500 ? `${note.slice(0, 499)}…` : note;
}

export const registrationCaseHandlers = {
  'as.m.registration.turnIntoCase': async ({ regid, cusercode }, ctx) => {
    const row = await registrationInScope(ctx, regid);
    const person = await matchedPerson(ctx, row, cusercode);
    const def = await loadDefinition(ctx.db, row.formcode, row.version);
    const caseid = await ctx.db.transaction(async (tx) => {
      // Locked, so two clicks at once open one case: the second sees the state already 'case'.
      const [locked] = await tx.select().from(registration).where(eq(registration.regid, regid)).for('update');
      if (!locked || locked.state === 'case') return alreadyCase();
      const opened = await openCaseFromRegistration(tx, ctx, {
        cusercode: person,
        level: 'attention',
        note: caseNote(def, locked, ctx.lang),
        registrationid: regid,
      });
      await tx
        .update(registration)
        .set({ state: 'case', caseid: opened.caseid, cusercode: person, updatedat: ctx.now() })
        .where(eq(registration.regid, regid));
      return opened.caseid;
    });
    await ctx.audit({
      result: 'ok',
      detail: { regid, cusercode: person, caseid, target: row.musercode },
    });
    return { caseid };
  },

} satisfies HandlerMap;
