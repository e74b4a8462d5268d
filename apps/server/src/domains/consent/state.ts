import { and, eq, inArray, sql } from 'drizzle-orm';
import { gradeRank, type ConsentState } from '@xinli/contract';
import type { Db, DbOrTx } from '../../db/database.js';
import { conflict, fail, type Message } from '../../http/errors.js';
import { preparedOnce, todayIn } from '../../kit/index.js';
import { personBriefs } from '../persons/index.js';
import { currentGradesOf } from '../tasks/index.js';
import { keptNotice, type Notice } from './notice.js';
import { consentRecord } from './tables.js';

/**
 * Where a person stands with consent (PIPL Arts. 14, 29, 31): under 14 or not (their birth date
 * against today, else their current class's grade: primary and junior-middle grades, ranks 1–9),
 * a guardian's consent on record, the current notice agreed to, consent withdrawn.
 */

/** The first junior-middle grade after which pupils are 14 or older: ranks 1–9 are primary and 初一–初三. */
const LAST_MINOR_GRADE = 9;

export type MinorBy = 'birthdate' | 'grade' | '';

/** Under 14 on `today` by birth date (YYYY-MM-DD): the fourteenth birthday is still to come. */
export const underFourteen = (birthdate: string, today: string) => `${String(Number(birthdate.slice(0, 4)) + 14).padStart(4, '0')}${birthdate.slice(4)}` > today;

/** Why a person counts as under 14: a known birth date decides; without one, a primary or junior-middle class. */
export function minorBy(birthdate: string | null, grade: string | undefined, today: string): MinorBy {
  if (birthdate) return underFourteen(birthdate, today) ? 'birthdate' : '';
  const rank = grade ? gradeRank(grade) : null;
  return rank !== null && rank <= LAST_MINOR_GRADE ? 'grade' : '';
}

export interface ConsentStanding {
  state: ConsentState;
  minor: boolean;
  minorby: MinorBy;
  guardian: boolean;
  /** Agreed to the current notice version. */
  agreed: boolean;
  withdrawn: boolean;
  noticeversion: number;
}

/** A person's records of their latest round: a renewal sets aside what came before it. */
function latestRound<R extends { round: number }>(records: R[]): R[] {
  const round = Math.max(0, ...records.map((r) => r.round));
  return records.filter((r) => r.round === round);
}

type RecordRow = { kind: string; noticeversion: number | null; round: number };

/** A person's standing from what was read: their records, birth date and current class's grade, and the notice now. */
function standingOf(records: RecordRow[], birthdate: string | null, grade: string | undefined, notice: Notice, today: string): ConsentStanding {
  const mine = latestRound(records);
  const by = minorBy(birthdate, grade, today);
  const withdrawn = mine.some((r) => r.kind === 'withdrawal');
  const guardian = mine.some((r) => r.kind === 'guardian');
  const agreed = mine.some((r) => (r.kind === 'notice' || (r.kind === 'guardian' && r.noticeversion !== null)) && r.noticeversion === notice.version);
  const state: ConsentState = withdrawn ? 'withdrawn' : by && !guardian ? 'guardianmissing' : agreed ? 'given' : 'pending';
  return { state, minor: !!by, minorby: by, guardian, agreed, withdrawn, noticeversion: notice.version };
}

/** The standing of persons of one institution (their notice), by cusercode. */
export async function consentStandings(db: DbOrTx, musercode: string, cusercodes: string[], now: Date): Promise<Map<string, ConsentStanding>> {
  const out = new Map<string, ConsentStanding>();
  if (!cusercodes.length) return out;
  // One after another: a respondent step reads this inside its transaction, whose one connection
  // must not be sent a second query while the first runs.
  const notice = await keptNotice(db, musercode);
  const people = await personBriefs(db, cusercodes);
  const grades = await currentGradesOf(db, cusercodes);
  const records: { cusercode: string; kind: string; noticeversion: number | null; round: number }[] = [];
  for (let i = 0; i < cusercodes.length; i += 5000)
    records.push(
      ...(await db
        .select({ cusercode: consentRecord.cusercode, kind: consentRecord.kind, noticeversion: consentRecord.noticeversion, round: consentRecord.round })
        .from(consentRecord)
        .where(inArray(consentRecord.cusercode, cusercodes.slice(i, i + 5000)))),
    );
  const byPerson = new Map<string, typeof records>();
  for (const r of records) byPerson.set(r.cusercode, [...(byPerson.get(r.cusercode) ?? []), r]);
  const today = todayIn(now);
  for (const c of cusercodes) out.set(c, standingOf(byPerson.get(c) ?? [], people.get(c)?.birthdate ?? null, grades.get(c), notice, today));
  return out;
}

/**
 * The institution's current notice (kept by the process) and one person's consent records: each
 * respondent step asks for both. On the pool, so the two are read at once.
 */
async function noticeAndRecords(db: Db, musercode: string, cusercode: string): Promise<{ notice: Notice; records: RecordRow[] }> {
  const [notice, records] = await Promise.all([keptNotice(db, musercode), recordsRead(db).execute({ cusercode })]);
  return { notice, records };
}

/** Prepared: every respondent step reads them. */
const recordsRead = preparedOnce('consent_person_records', (db, name) =>
  db
    .select({ kind: consentRecord.kind, noticeversion: consentRecord.noticeversion, round: consentRecord.round })
    .from(consentRecord)
    .where(eq(consentRecord.cusercode, sql.placeholder('cusercode')))
    .prepare(name),
);

/**
 * A person as the respondent's step reads them (persons' brief): consent asks only the birth date,
 * given as read or as the read still under way.
 */
export interface ConsentPerson {
  cusercode: string;
  birthdate: string | null | Promise<string | null>;
}

/**
 * One respondent's standing and the notice it was read against: the notice and their records,
 * beside them their class's grade unless a birth date already read decides (while the
 * person is still being read, the grade is read beside it: both are kept reads, confirmed current
 * together). Reads in parallel, so on the pool, never inside a transaction (consentStandings is).
 */
export async function personConsent(db: Db, musercode: string, person: ConsentPerson, now: Date): Promise<{ notice: Notice; standing: ConsentStanding }> {
  const [{ notice, records }, birthdate, grades] = await Promise.all([
    noticeAndRecords(db, musercode, person.cusercode),
    person.birthdate,
    typeof person.birthdate === 'string' ? new Map<string, string>() : currentGradesOf(db, [person.cusercode]),
  ]);
  return { notice, standing: standingOf(records, birthdate, grades.get(person.cusercode), notice, todayIn(now)) };
}

/**
 * The notice now and whether the person withdrew consent: all that agreeing to the notice on the
 * phone asks (whether they are a minor does not matter there).
 */
export async function noticeAndWithdrawal(db: Db, musercode: string, cusercode: string): Promise<{ notice: Notice; withdrawn: boolean }> {
  const { notice, records } = await noticeAndRecords(db, musercode, cusercode);
  return { notice, withdrawn: latestRound(records).some((r) => r.kind === 'withdrawal') };
}

export async function consentStanding(db: DbOrTx, musercode: string, cusercode: string, now: Date): Promise<ConsentStanding> {
  return (await consentStandings(db, musercode, [cusercode], now)).get(cusercode)!;
}

const WITHDRAWN = {
  zh: '你（或你的监护人）已撤回对处理个人信息的同意，不能继续测评。如需帮助，请联系为你安排测评的老师或工作人员。',
  en: 'You (or your guardian) have withdrawn consent to the processing of your personal information, so the assessment cannot go on. If you need help, please contact the teacher or staff member who arranged it.',
};
const GUARDIAN_MISSING = {
  zh: '你未满十四周岁，需要父母或其他监护人同意后才能作答。请让监护人在本页签署同意，或请老师登记班级的监护人同意书。',
  en: 'You are under 14, so a parent or other guardian must consent before you answer. Ask your guardian to consent on this page, or ask your teacher to record your class’s guardian consent sheet.',
};
const NOT_AGREED = {
  zh: '请先阅读并同意本机构关于处理敏感个人信息的告知。',
  en: 'Please first read and agree to the institution’s notice on processing sensitive personal information.',
};

/** A refusal for want of consent: HTTP 422 (the request is understood, the person may not answer). */
export const refuseForConsent = (msg: Message): never => fail('validation', msg, 422);

/**
 * Refuses (422) every assessment step of a person who may not answer: consent withdrawn, under 14
 * without a guardian's consent, or the current notice not agreed to.
 */
export async function assertMayAnswer(db: DbOrTx, person: { musercode: string; cusercode: string }, now: Date): Promise<void> {
  assertStandingAllows(await consentStanding(db, person.musercode, person.cusercode, now));
}

/** assertMayAnswer on a standing already read (personConsent). */
export function assertStandingAllows(s: ConsentStanding): void {
  if (s.withdrawn) refuseForConsent(WITHDRAWN);
  if (s.minor && !s.guardian) refuseForConsent(GUARDIAN_MISSING);
  if (!s.agreed) refuseForConsent(NOT_AGREED);
}

/** Of these persons, those whose consent is withdrawn (and not renewed since). */
export async function withdrawnAmong(db: DbOrTx, cusercodes: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < cusercodes.length; i += 5000) {
    const rows = await db
      .select({ cusercode: consentRecord.cusercode, kind: consentRecord.kind, round: consentRecord.round })
      .from(consentRecord)
      .where(and(inArray(consentRecord.cusercode, cusercodes.slice(i, i + 5000)), inArray(consentRecord.kind, ['withdrawal', 'renewal'])));
    const byPerson = new Map<string, typeof rows>();
    for (const r of rows) byPerson.set(r.cusercode, [...(byPerson.get(r.cusercode) ?? []), r]);
    for (const [c, mine] of byPerson) if (latestRound(mine).some((r) => r.kind === 'withdrawal')) out.add(c);
  }
  return out;
}

/**
 * Refuses (409) giving a code or plan to persons whose consent is withdrawn: every step of it
 * would be refused, so the code would only mislead. `names` are shown, the first few, with the count.
 */
export async function assertNoneWithdrawn(db: DbOrTx, persons: { cusercode: string; realname: string }[]): Promise<void> {
  const withdrawn = await withdrawnAmong(
    db,
    persons.map((p) => p.cusercode),
  );
  if (!withdrawn.size) return;
  const names = persons.filter((p) => withdrawn.has(p.cusercode)).map((p) => p.realname);
  const shown = names.slice(0, 5);
  const more = names.length > shown.length;
  conflict({
    zh: `${shown.join('、')}${more ? ` 等 ${names.length} 人` : ''}已撤回对处理个人信息的同意，不能再发放测评码。如本人重新同意，请先在其档案中登记。`,
    en: `${shown.join(', ')}${more ? ` and ${names.length - shown.length} more` : ''} ${names.length > 1 ? 'have' : 'has'} withdrawn consent to the processing of personal information, so no assessment code can be given. If the person consents again, record it on their page first.`,
  });
}
