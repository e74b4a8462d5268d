import { and, asc, desc, eq, gte, lt, ne, or } from 'drizzle-orm';
import type { ArchiveAnswer, FormDefinition, Lang, RegistrationRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict } from '../../http/errors.js';
import { contains, iso, maskPhone, paged } from '../../kit/index.js';
import { ownedBy, accountNames } from '../accounts/index.js';
import { open } from '../../kit/crypt/index.js';
import { archiveDisplay, assertNotAnonymised, findPersonsByName, openArchive, personBriefs, personInScope, personNameLike } from '../persons/index.js';
import { assertFormsReadable, formBriefs, loadDefinition } from '../scales/index.js';
import { notRegistrationForm, usableForm } from './forms.js';
import { registrationInScope, storeRegistration, type RegistrationRecord } from './store.js';
import { registration } from './tables.js';

/** Staff's registrations (SPEC §2 /registration): list, read, fill in for a person, move between states. */

/** Midnight in China (UTC+8, no daylight saving) of a calendar date, as an instant. */
const chinaMidnight = (date: string, plusDays = 0) => new Date(Date.parse(`${date}T00:00:00+08:00`) + plusDays * 86_400_000);

async function rowsOut(db: DbOrTx, rows: RegistrationRecord[], lang: Lang): Promise<RegistrationRow[]> {
  const [persons, names, forms] = await Promise.all([
    personBriefs(
      db,
      rows.flatMap((r) => (r.cusercode ? [r.cusercode] : [])),
      lang,
    ),
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    formBriefs(
      db,
      rows.map((r) => r.formcode),
      lang,
    ),
  ]);
  return rows.map((r) => ({
    regid: r.regid,
    musercode: r.musercode,
    insname: names.get(r.musercode) ?? '',
    cusercode: r.cusercode ?? '',
    realname: (r.cusercode ? persons.get(r.cusercode)?.realname : undefined) ?? r.realname,
    phone: maskPhone(open(r.phone)),
    formcode: r.formcode,
    formname: forms.get(r.formcode)?.formname ?? r.formcode,
    version: r.version,
    state: r.state as RegistrationRow['state'],
    source: r.source as RegistrationRow['source'],
    createdby: r.createdby,
    caseid: r.caseid,
    createdat: iso(r.createdat),
    updatedat: iso(r.updatedat),
  }));
}

/** The answers in words, one per question of the version answered ('' where unanswered). */
export function answersInWords(def: FormDefinition, answers: ArchiveAnswer[], lang: Lang) {
  const words = archiveDisplay(def, answers, lang);
  return def.questions.map((q) => ({ no: q.no, question: q.text, type: q.type, answer: words[`q${q.no}`] ?? '' }));
}

export const registrationHandlers = {
  'as.m.registration.getRegistrationPage': async (f, ctx) => {
    if (f.formcode) await assertFormsReadable(ctx.db, ctx.me, [f.formcode]);
    const where = and(
      ownedBy(ctx, registration.musercode, f.musercode || undefined),
      f.formcode ? eq(registration.formcode, f.formcode) : undefined,
      f.state ? eq(registration.state, f.state) : undefined,
      f.startdate ? gte(registration.createdat, chinaMidnight(f.startdate)) : undefined,
      f.enddate ? lt(registration.createdat, chinaMidnight(f.enddate, 1)) : undefined,
      f.realname ? or(contains(registration.realname, f.realname), personNameLike(registration.cusercode, f.realname)) : undefined,
    );
    const query = ctx.db.select().from(registration).where(where).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(registration.createdat), asc(registration.regid)], f);
    return { total, rows: await rowsOut(ctx.db, rows, ctx.lang) };
  },

  'as.m.registration.getRegistration': async ({ regid }, ctx) => {
    const row = await registrationInScope(ctx, regid);
    const [out] = await rowsOut(ctx.db, [row], ctx.lang);
    const def = await loadDefinition(ctx.db, row.formcode, row.version);
    await ctx.audit({
      result: 'ok',
      detail: { regid, cusercode: row.cusercode, target: row.musercode },
    });
    return { ...out!, phone: open(row.phone) ?? '', answers: answersInWords(def, openArchive(row.answers), ctx.lang) };
  },

  'as.m.registration.insertRegistration': async ({ cusercode, formcode, answers }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    assertNotAnonymised(person);
    await assertFormsReadable(ctx.db, ctx.me, [formcode]);
    const def = await usableForm(ctx.db, person.musercode, formcode, ctx.lang, notRegistrationForm);
    const regid = await storeRegistration(ctx.db, def, {
      musercode: person.musercode,
      cusercode,
      answers,
      source: 'staff',
      createdby: ctx.me.userid ?? ctx.me.musercode,
      now: ctx.now(),
    });
    await ctx.audit({
      result: 'ok',
      detail: { regid, cusercode, formcode, target: person.musercode },
    });
    return { regid };
  },

  'as.m.registration.updateRegistrationState': async ({ regid, state }, ctx) => {
    const row = await registrationInScope(ctx, regid);
    const [changed] = await ctx.db
      .update(registration)
      .set({ state, updatedat: ctx.now() })
      .where(and(eq(registration.regid, row.regid), ne(registration.state, 'case')))
      .returning({ regid: registration.regid });
    if (!changed)
      conflict({ zh: '该登记已转为个案，状态不能再改', en: 'This registration has been turned into a case; its state cannot change' });
    await ctx.audit({
      result: 'ok',
      detail: { regid, from: row.state, to: state, target: row.musercode },
    });
    return null;
  },

  'as.m.registration.getPersonOptions': async ({ realname, musercode }, ctx) => {
    const persons = await findPersonsByName(ctx, ctx.db, realname, musercode);
    const names = await accountNames(
      ctx.db,
      persons.map((p) => p.musercode),
    );
    return persons.map((p) => ({
      cusercode: p.cusercode,
      realname: p.realname,
      gender: p.gender,
      birthdate: p.birthdate,
      musercode: p.musercode,
      insname: names.get(p.musercode) ?? '',
    }));
  },
} satisfies HandlerMap;
