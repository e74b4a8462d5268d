import { and, eq } from 'drizzle-orm';
import type { ArchiveAnswer, FormDefinition } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { invalid, notFound } from '../../http/errors.js';
import { newId } from '../../kit/index.js';
import { scopeWhere } from '../auth/index.js';
import { seal, type SealedField } from '../../kit/crypt/index.js';
import { checkArchive, sealArchive } from '../persons/index.js';
import { registration } from './tables.js';

/** A registration's storage: checked answers in, one in the caller's scope out (staff, respondent and demo use it). */

export type RegistrationRecord = typeof registration.$inferSelect;

const noSuchRegistration = () => notFound({ zh: '登记不存在', en: 'No such registration' });

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

/**
 * A registration's phone and free-text answers at rest (issue 30 §3): sealed (kit/crypt), opened
 * only for the rows shown. No list searches by phone, so the phone has no blind index.
 */
export const consultationSealedFields: SealedField[] = [
  { kind: 'text', table: 'registration', key: 'regid', column: 'phone' },
  { kind: 'answers', table: 'registration', key: 'regid', column: 'answers', field: 'value' },
];

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
    phone: seal(r.phone || null),
    formcode: def.formcode,
    version: def.version,
    answers: sealArchive(answers),
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
export async function registrationInScope(ctx: Ctx, regid: string): Promise<RegistrationRecord> {
  const [row] = await ctx.db
    .select()
    .from(registration)
    .where(and(eq(registration.regid, regid), scopeWhere(registration.musercode, ctx.me)));
  return row ?? noSuchRegistration();
}
