import { and, asc, count, desc, eq, gte, lt, ne, or, sql } from 'drizzle-orm';
import type { ArchiveAnswer, FormDefinition, Lang, RegistrationRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { AppError, conflict, invalid, notFound } from '../../http/errors.js';
import { contains, iso, maskPhone, newId, paged } from '../../kit/index.js';
import { ownedBy, accountInScope, accountNames } from '../accounts/index.js';
import { limitedEntry, resolveEntryToken } from '../assessments/index.js';
import { scopeWhere } from '../auth/index.js';
import { archiveDisplay, checkArchive, findPersonsByName, personBriefs, personInScope, personNameLike } from '../persons/index.js';
import { assertFormsReadable, formBriefs, loadCurrentDefinitions, loadDefinition, registrationFormsOf } from '../scales/index.js';
import { openCaseFromRegistration } from '../warnings/index.js';
import { registration } from './tables.js';

/**
 * Consultation registration (SPEC §2 /registration, registrationForm 00016): staff list, read,
 * fill in and move registrations; a person requests a consultation through the institution's QR
 * entry (as.c.registration.*, no token, rate-limited per address like the code entry).
 */

type RegistrationRecord = typeof registration.$inferSelect;

/** Successful QR registrations one address may send per hour (a waiting room's shared Wi-Fi fits; a flood does not). */
export const SUBMISSIONS_PER_ADDRESS_PER_HOUR = 20;

const noSuchRegistration = () => notFound({ zh: '登记不存在', en: 'No such registration' });
const noSuchForm = () => notFound({ zh: '登记表不存在或不可用', en: 'No such registration form, or it may not be used here' });
/** A form the caller can read that is not a registration form usable here. */
const notRegistrationForm = () =>
  invalid({ zh: '该量表不是本机构可用的登记表', en: 'This form is not a registration form this institution may use' });

/** Midnight in China (UTC+8, no daylight saving) of a calendar date, as an instant. */
const chinaMidnight = (date: string, plusDays = 0) => new Date(Date.parse(`${date}T00:00:00+08:00`) + plusDays * 86_400_000);

async function rowsOut(db: DbOrTx, rows: RegistrationRecord[], lang: Lang): Promise<RegistrationRow[]> {
  const [persons, names, forms] = await Promise.all([
    personBriefs(
      db,
      rows.flatMap((r) => (r.cusercode ? [r.cusercode] : [])),
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
    phone: maskPhone(r.phone),
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
function answersInWords(def: FormDefinition, answers: ArchiveAnswer[], lang: Lang) {
  const words = archiveDisplay(def, answers, lang);
  return def.questions.map((q) => ({ no: q.no, question: q.text, type: q.type, answer: words[`q${q.no}`] ?? '' }));
}

/** A registration form as it is filled in: questions and options only. */
const formDetail = (def: FormDefinition) => ({
  formcode: def.formcode,
  formname: def.formname,
  formtype: def.formtype,
  version: def.version,
  instructions: def.instructions,
  questions: def.questions.map((q) => ({
    no: q.no,
    type: q.type,
    ...(q.inputtype === undefined ? {} : { inputtype: q.inputtype }),
    required: q.required,
    text: q.text,
    options: q.options.map((o) => ({ text: o.text })),
    ...(q.range ? { range: q.range } : {}),
  })),
});

/**
 * Answers checked against the form: each names a question and fits its type and range, and
 * every required question is answered. A refusal names every problem in both languages.
 */
function checkedAnswers(def: FormDefinition, answers: ArchiveAnswer[]): ArchiveAnswer[] {
  const { answers: out, problems } = checkArchive(def, answers);
  const answered = new Set(out.map((a) => a.no));
  // checkArchive lets an empty sheet pass (an archive not filled yet); a registration may not.
  if (!answers.length)
    for (const q of def.questions)
      if (q.required && !answered.has(q.no)) problems.push({ no: q.no, reason: { zh: '必填', en: 'is required' } });
  if (problems.length) {
    invalid({
      zh: `登记表填写有误：${problems.map((p) => `第${p.no}题${p.reason.zh}`).join('；')}`,
      en: `Please check the form: ${problems.map((p) => `question ${p.no} ${p.reason.en}`).join('; ')}`,
    });
  }
  return out;
}

export interface NewRegistration {
  musercode: string;
  /** The person, when known (staff entries); null for a respondent registration until matched. */
  cusercode?: string | null;
  realname?: string;
  phone?: string | null;
  answers: ArchiveAnswer[];
  source: 'respondent' | 'staff';
  createdby?: string;
  ip?: string | null;
  now: Date;
  state?: 'new' | 'inprogress' | 'closed';
}

/** Stores a registration on the given form version after checking its answers (also the demo seed's way in). */
export async function storeRegistration(db: DbOrTx, def: FormDefinition, r: NewRegistration): Promise<string> {
  const answers = checkedAnswers(def, r.answers);
  const regid = newId('RG');
  await db.insert(registration).values({
    regid,
    musercode: r.musercode,
    cusercode: r.cusercode ?? null,
    realname: r.realname ?? '',
    phone: r.phone ?? null,
    formcode: def.formcode,
    version: def.version,
    answers,
    state: r.state ?? 'new',
    source: r.source,
    createdby: r.createdby ?? '',
    ip: r.ip ?? null,
    createdat: r.now,
    updatedat: r.now,
  });
  return regid;
}

/** A registration in the caller's scope, or "not found". */
async function registrationInScope(ctx: Ctx, regid: string): Promise<RegistrationRecord> {
  const [row] = await ctx.db
    .select()
    .from(registration)
    .where(and(eq(registration.regid, regid), scopeWhere(registration.musercode, ctx.me)));
  return row ?? noSuchRegistration();
}

/** The current definition of a registration form an institution may use, or "not found". */
async function usableForm(
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

async function entryOf(db: DbOrTx, entrytoken: string) {
  const entry = await resolveEntryToken(db, entrytoken);
  return (
    entry ??
    notFound({
      zh: '二维码已失效，请向机构索取新的二维码',
      en: 'This QR code is no longer valid; please ask the institution for a new one',
    })
  );
}

/** Key space of the per-address lock of QR registrations (pg_advisory_xact_lock(key, hashtext(ip))). */
const SUBMISSION_LOCK = 27043;

/**
 * Refuses a flood of registrations from one address (successful ones; failures count in
 * limitedEntry). Called in the transaction that stores the registration: the lock on the address
 * makes parallel submissions count one after another, so the cap holds (issue 27 item 14).
 */
async function capSubmissions(tx: DbOrTx, ctx: Ctx) {
  await tx.execute(sql`select pg_advisory_xact_lock(${SUBMISSION_LOCK}, hashtext(${ctx.ip}))`);
  const since = new Date(ctx.now().getTime() - 3600_000);
  const [row] = await tx
    .select({ n: count() })
    .from(registration)
    .where(and(eq(registration.ip, ctx.ip), gte(registration.createdat, since)));
  if (Number(row?.n ?? 0) >= SUBMISSIONS_PER_ADDRESS_PER_HOUR)
    throw new AppError(
      'rateLimited',
      {
        zh: '提交次数过多，请稍后再试或直接致电机构',
        en: 'Too many requests from this address; please try again later or call the institution',
      },
      429,
    );
}

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
  const words = answersInWords(def, row.answers, lang)
    .filter((a) => a.answer)
    .map((a) => a.answer)
    .join(lang === 'en-US' ? '; ' : '；');
  const note = lang === 'en-US' ? `Consultation request (${name}): ${words}` : `咨询登记（${name}）：${words}`;
  return note.length > 500 ? `${note.slice(0, 499)}…` : note;
}

export const consultationHandlers = {
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
    return { ...out!, phone: row.phone ?? '', answers: answersInWords(def, row.answers, ctx.lang) };
  },

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

  'as.m.registration.insertRegistration': async ({ cusercode, formcode, answers }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
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

  // ---------- respondent channel ----------

  'as.c.registration.getForm': async ({ entrytoken }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx.db, entrytoken);
      const [first] = await registrationFormsOf(ctx.db, entry.musercode, ctx.lang);
      const def = first ? (await loadCurrentDefinitions(ctx.db, [first.formcode])).get(first.formcode) : undefined;
      return {
        insname: (await accountNames(ctx.db, [entry.musercode])).get(entry.musercode) ?? '',
        title: entry.title,
        hotline: entry.hotline,
        form: def ? formDetail(def) : null,
      };
    }),

  'as.c.registration.submit': async ({ entrytoken, formcode, realname, phone, answers }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx.db, entrytoken);
      // Only the form the entry offers (its first usable one), so a respondent cannot pick another.
      const [first] = await registrationFormsOf(ctx.db, entry.musercode, ctx.lang);
      if (first?.formcode !== formcode) return noSuchForm();
      const def = await usableForm(ctx.db, entry.musercode, formcode, ctx.lang);
      const regid = await ctx.db.transaction(async (tx) => {
        await capSubmissions(tx, ctx);
        return storeRegistration(tx, def, {
          musercode: entry.musercode,
          realname,
          phone,
          answers,
          source: 'respondent',
          ip: ctx.ip,
          now: ctx.now(),
        });
      });
      await ctx.audit({ musercode: entry.musercode, result: 'ok', detail: { regid, formcode } });
      return { regid, hotline: entry.hotline };
    }),
} satisfies HandlerMap;
