/**
 * What other domains may do with persons (DESIGN §4: through functions, never the cuser table):
 *
 * - personInScope(ctx, db, cusercode): the living person, or "not found" outside the caller's scope;
 * - createPerson(db, {...}): register a person (the respondent channel uses it when someone
 *   registers through an institution's QR code; the console and imports go through it too);
 * - livingPersonsInScope(ctx, db, cusercodes): of many persons, the living ones in the caller's scope;
 * - personBriefs(db, cusercodes): names, gender, app and institution of many persons at once
 *   (deleted ones included, so old reports still name who they are about);
 * - removePersons(tx, cusercodes, by, now): delete many persons as as.m.cuser.deleteCUser does
 *   (undoing a burst of QR-link entries).
 */
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ArchiveAnswer, Lang } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { conflict, invalid, notFound, type Message } from '../../http/errors.js';
import { containsPattern, newId, outerColumn, preparedForKeys, referenceRead, type Bindable } from '../../kit/index.js';
import { ownedBy } from '../accounts/index.js';
import { appsOf } from '../apps/index.js';
import { inScope, scopeWhere } from '../auth/index.js';
import { archiveFormOf } from '../scales/index.js';
import { checkArchive } from './archive.js';
import { identityColumns, openArchive, sealArchive } from './identity.js';
import { cuser } from './tables.js';

export type PersonRecord = typeof cuser.$inferSelect;

export interface PersonBrief {
  cusercode: string;
  musercode: string;
  appid: string;
  realname: string;
  gender: string;
  birthdate: string | null;
  deleted: boolean;
  anonymised: boolean;
}

export const ANONYMISED: Message = {
  zh: '该测评对象已匿名，信息已不可恢复，不能修改或再次匿名',
  en: 'This person has been anonymised; their details cannot be restored, changed or anonymised again',
};

/**
 * A person's name as a reader sees it: an anonymised person's stored name is the fixed word
 * 已匿名 (rights.ts), shown as "Anonymised" to an English reader. Every list, drawer, export and
 * PDF naming a person goes through here (personRow, personBriefs).
 */
export const personName = (p: { realname: string; anonymisedat: Date | null }, lang: Lang | undefined) =>
  p.anonymisedat && lang === 'en-US' ? 'Anonymised' : p.realname;

/** Refuses a change of an anonymised person. */
export function assertNotAnonymised(person: { anonymisedat: Date | null }) {
  if (person.anonymisedat) conflict(ANONYMISED);
}

/**
 * Refuses a write about a person once anonymised (a follow-up on their case, a comment on their
 * report) where the caller holds the code, not the person: nothing new may be written about them.
 */
export async function assertPersonNotAnonymised(db: DbOrTx, cusercode: string) {
  const [row] = await db.select({ anonymisedat: cuser.anonymisedat }).from(cuser).where(eq(cuser.cusercode, cusercode));
  if (row) assertNotAnonymised(row);
}

/** The living person named by cusercode if the caller may see it; else "not found" (never "denied"). */
export async function personInScope(ctx: Ctx, db: DbOrTx, cusercode: string): Promise<PersonRecord> {
  const [row] = await db
    .select()
    .from(cuser)
    .where(and(eq(cuser.cusercode, cusercode), isNull(cuser.deletedat)));
  if (!row || !inScope(ctx.me, row.musercode)) return notFound({ zh: '测评对象不存在', en: 'No such person' });
  return row;
}

/** Of `cusercodes`, the living persons in the caller's scope (the others are left out), with their institution. */
export async function livingPersonsInScope(ctx: Ctx, db: DbOrTx, cusercodes: string[]): Promise<{ cusercode: string; musercode: string }[]> {
  return db
    .select({ cusercode: cuser.cusercode, musercode: cuser.musercode })
    .from(cuser)
    .where(and(inArray(cuser.cusercode, cusercodes), isNull(cuser.deletedat), scopeWhere(cuser.musercode, ctx.me)));
}

/** Briefs of many persons; `lang`, for what a reader sees, names an anonymised person in their language (personName). */
export async function personBriefs(db: DbOrTx, cusercodes: Iterable<string>, lang?: Lang): Promise<Map<string, PersonBrief>> {
  const codes = [...new Set(cusercodes)];
  if (!codes.length) return new Map();
  const rows = codes.length === 1 ? await keptBriefRows(db, codes[0]!) : await briefsRead(db, codes);
  return new Map(
    rows.map(({ deletedat, anonymisedat, ...r }) => [
      r.cusercode,
      { ...r, realname: personName({ realname: r.realname, anonymisedat }, lang), deleted: deletedat !== null, anonymised: anonymisedat !== null },
    ]),
  );
}

/**
 * One person's brief is kept by the process (every respondent step reads its person): cuser
 * announces changes of the brief's columns (migration 0052), not inserts, so only a person found
 * is kept.
 */
const keptBriefRows = referenceRead(
  'person_brief',
  (cusercode: string) => cusercode,
  (db, cusercode: string) => briefsRead(db, [cusercode]),
  (rows) => rows.length > 0,
);

/** Prepared: every respondent step reads its person. */
const briefsRead = preparedForKeys('person_briefs', (db, name, keyIs) =>
  db
    .select({ cusercode: cuser.cusercode, musercode: cuser.musercode, appid: cuser.appid, realname: cuser.realname, gender: cuser.gender, birthdate: cuser.birthdate, deletedat: cuser.deletedat, anonymisedat: cuser.anonymisedat })
    .from(cuser)
    .where(keyIs(cuser.cusercode))
    .prepare(name),
);

export interface NewPerson {
  musercode: string;
  appid: string;
  realname: string;
  gender: '01' | '02';
  birthdate?: string | null;
  phonenumber?: string | null;
  idcard?: string | null;
  archive?: ArchiveAnswer[];
  source: 'console' | 'import' | 'qrcode';
  now: Date;
}

/** Refusal of an archive that does not fit the app's archive form, naming every question. */
export function archiveRefusal(problems: { no: number; reason: Message }[]): never {
  const zh = problems.map((p) => `第${p.no}题${p.reason.zh}`).join('；');
  const en = problems.map((p) => `question ${p.no} ${p.reason.en}`).join('; ');
  return invalid({ zh: `档案填写有误：${zh}`, en: `The archive is not valid: ${en}` });
}

/** The app must be one the institution has (the population it serves). */
export async function assertAppOfInstitution(db: DbOrTx, musercode: string, appid: string) {
  const apps = await appsOf(db, musercode);
  if (!apps.some((a) => a.appid === appid)) invalid({ zh: `该机构未开通此应用：${appid}`, en: `The institution does not have this app: ${appid}` });
}

/**
 * Checks archive answers against the app's archive form and answers what to store. With no
 * archive form, only an empty archive is accepted.
 */
export async function archiveToStore(db: DbOrTx, musercode: string, appid: string, archive: ArchiveAnswer[] | undefined) {
  return storedArchive(await archiveFormOf(db, musercode, appid), archive);
}

function storedArchive(form: Awaited<ReturnType<typeof archiveFormOf>>, archive: ArchiveAnswer[] | undefined) {
  if (!form) {
    if (archive?.length) invalid({ zh: '此应用没有档案表，不能填写档案', en: 'This app has no archive form; no archive can be given' });
    return { archive: [], archiveformcode: null, archiveversion: null };
  }
  const { answers, problems } = checkArchive(form.definition, archive ?? []);
  if (problems.length) archiveRefusal(problems);
  return { archive: sealArchive(answers), archiveformcode: form.formcode, archiveversion: form.version };
}

/** Registers a person; the institution's existence and the caller's right to it are the caller's checks. */
export async function createPerson(db: DbOrTx, p: NewPerson): Promise<{ cusercode: string }> {
  const [cusercode] = await createPersons(db, [p]);
  return { cusercode: cusercode! };
}

/**
 * Registers many persons with the same checks as createPerson (app of the institution, archive
 * against the app's archive form), reading each institution's form once; answers their codes in
 * order. Nothing is written unless every person passes.
 */
export async function createPersons(db: DbOrTx, people: NewPerson[]): Promise<string[]> {
  const forms = new Map<string, Awaited<ReturnType<typeof archiveFormOf>>>();
  const rows: (typeof cuser.$inferInsert)[] = [];
  for (const p of people) {
    const key = `${p.musercode}/${p.appid}`;
    if (!forms.has(key)) {
      await assertAppOfInstitution(db, p.musercode, p.appid);
      forms.set(key, await archiveFormOf(db, p.musercode, p.appid));
    }
    const stored = storedArchive(forms.get(key)!, p.archive);
    rows.push({
      cusercode: newId('C'),
      musercode: p.musercode,
      appid: p.appid,
      realname: p.realname,
      gender: p.gender,
      birthdate: p.birthdate || null,
      ...identityColumns({ phonenumber: p.phonenumber ?? null, idcard: p.idcard ?? null }),
      ...stored,
      source: p.source,
      createdat: p.now,
      updatedat: p.now,
    });
  }
  for (let i = 0; i < rows.length; i += 500) await db.insert(cuser).values(rows.slice(i, i + 500));
  return rows.map((r) => r.cusercode);
}

/**
 * Deletes living persons as as.m.cuser.deleteCUser does (kept, marked deleted by `by`: the audit
 * trail goes on naming them); the caller has checked they are its to delete. Answers how many.
 */
export async function removePersons(tx: DbOrTx, cusercodes: string[], by: string, now: Date): Promise<number> {
  let n = 0;
  for (let i = 0; i < cusercodes.length; i += 5000) {
    const part = cusercodes.slice(i, i + 5000);
    const done = await tx
      .update(cuser)
      .set({ deletedat: now, deletedby: by, updatedat: now })
      .where(and(inArray(cuser.cusercode, part), isNull(cuser.deletedat)))
      .returning({ cusercode: cuser.cusercode });
    n += done.length;
  }
  return n;
}

/** The archive answers a person has given so far (the respondent page shows them again). */
export async function personArchive(db: DbOrTx, cusercode: string): Promise<ArchiveAnswer[]> {
  const [row] = await db.select({ archive: cuser.archive }).from(cuser).where(eq(cuser.cusercode, cusercode));
  return openArchive(row?.archive ?? []);
}

/**
 * A respondent's answers to the archive form of the person's app, checked like a staff edit and
 * stored in the person's archive (merged over the earlier answers by question).
 */
export async function updatePersonArchive(db: DbOrTx, cusercode: string, answers: ArchiveAnswer[], now: Date) {
  const [row] = await db.select().from(cuser).where(and(eq(cuser.cusercode, cusercode), isNull(cuser.deletedat)));
  if (!row) return notFound({ zh: '测评对象不存在', en: 'No such person' });
  if (row.anonymisedat) conflict(ANONYMISED);
  const merged = new Map(openArchive(row.archive).map((a) => [a.no, a]));
  for (const a of answers) merged.set(a.no, a);
  const stored = await archiveToStore(db, row.musercode, row.appid, [...merged.values()].sort((a, b) => a.no - b.no));
  await db.update(cuser).set({ ...stored, updatedat: now }).where(eq(cuser.cusercode, cusercode));
}

/** SQL: the person in `column` is not deleted (lists of other domains leave deleted persons out). */
/** How many persons (not deleted) an institution has: an account with persons cannot be deleted. */
export async function accountPersonCount(db: DbOrTx, musercode: string): Promise<number> {
  return Number(await db.$count(cuser, and(eq(cuser.musercode, musercode), isNull(cuser.deletedat))));
}

/**
 * The person's name as personName shows it (an anonymised person is "Anonymised" to an English
 * reader) and gender, as columns of another domain's query keyed by its cusercode column: scalar
 * subqueries on the primary key, so a list of reports stays one statement.
 */
export function personColumnsOf(cusercode: AnyPgColumn, lang: Lang | undefined) {
  const of = (column: SQL) => sql<string>`coalesce((select ${column} from ${cuser} where ${cuser.cusercode} = ${outerColumn(cusercode)}), '')`;
  const name = lang === 'en-US' ? sql`case when ${cuser.anonymisedat} is null then ${cuser.realname} else 'Anonymised' end` : sql`${cuser.realname}`;
  return { realname: of(name), gender: of(sql`${cuser.gender}`) };
}

export const livingPerson = (column: AnyPgColumn): SQL => sql`${column} in (select ${cuser.cusercode} from ${cuser} where ${cuser.deletedat} is null)`;

/** SQL: the person in `column` is of this gender (01 male, 02 female). */
export const personOfGender = (column: AnyPgColumn, gender: Bindable<string>): SQL =>
  sql`${column} in (select ${cuser.cusercode} from ${cuser} where ${cuser.gender} = ${gender})`;

/** SQL: the person in `column` has a name containing `realname` (case-insensitive, % and _ literal). */
export const personNameLike = (column: AnyPgColumn, realname: string): SQL => personNameMatching(column, containsPattern(realname));

/** SQL: the person in `column` has a name matching the ilike `pattern` (kit containsPattern). */
export const personNameMatching = (column: AnyPgColumn, pattern: Bindable<string>): SQL =>
  sql`${column} in (select ${cuser.cusercode} from ${cuser} where ${cuser.realname} ilike ${pattern})`;

/**
 * Living persons in the caller's scope (of one institution when named) whose name contains
 * `realname`, newest first, at most `limit`: a picker's search (consultation registration).
 */
export async function findPersonsByName(ctx: Ctx, db: DbOrTx, realname: string, musercode: string | undefined, limit = 20): Promise<PersonBrief[]> {
  const rows = await db
    .select({ cusercode: cuser.cusercode })
    .from(cuser)
    .where(and(isNull(cuser.deletedat), ownedBy(ctx, cuser.musercode, musercode), realname ? sql`${cuser.realname} ilike ${containsPattern(realname)}` : undefined))
    .orderBy(desc(cuser.createdat), asc(cuser.cusercode))
    .limit(limit);
  const briefs = await personBriefs(db, rows.map((r) => r.cusercode));
  return rows.map((r) => briefs.get(r.cusercode)!).filter(Boolean);
}

/** Changes names and genders of persons (a team roster import's "changed" rows), in one statement per 1,000. */
export async function renamePersons(db: DbOrTx, rows: { cusercode: string; realname: string; gender: '01' | '02' }[], now: Date) {
  for (let i = 0; i < rows.length; i += 1000) {
    await db.execute(sql`
      update cuser set realname = x.realname, gender = x.gender, updatedat = ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + 1000))}::jsonb) as x(cusercode text, realname text, gender text)
      where cuser.cusercode = x.cusercode`);
  }
}

/**
 * Registers many persons with name and gender only (a team roster import), answering their codes
 * in order. One statement per 1,000 over one JSON parameter (see import-handlers.ts
 * insertRosterRows: far cheaper than multi-row VALUES on PGlite); the table's checks apply.
 */
export async function createRosterPersons(db: DbOrTx, fixed: { musercode: string; appid: string; now: Date }, people: { realname: string; gender: '01' | '02' }[]): Promise<string[]> {
  if (!people.length) return [];
  await assertAppOfInstitution(db, fixed.musercode, fixed.appid);
  const rows = people.map((p) => ({ cusercode: newId('C'), realname: p.realname, gender: p.gender }));
  const at = fixed.now.toISOString();
  for (let i = 0; i < rows.length; i += 1000) {
    await db.execute(sql`
      insert into cuser (cusercode, musercode, appid, realname, gender, source, createdat, updatedat)
      select x.cusercode, ${fixed.musercode}, ${fixed.appid}, x.realname, x.gender, 'import', ${at}::timestamptz, ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + 1000))}::jsonb) as x(cusercode text, realname text, gender text)`);
  }
  return rows.map((r) => r.cusercode);
}
