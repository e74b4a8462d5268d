import { randomInt } from 'node:crypto';
import { and, count, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { ASSESS_CODE_ALPHABET, ASSESS_CODE_LENGTH } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { iso, todayIn } from '../../kit/index.js';
import { scopeWhere } from '../auth/index.js';
import { assertNoneWithdrawn } from '../consent/index.js';
import { assertNotAnonymised, personInScope, type PersonRecord } from '../persons/index.js';
import { planFormcodes, planNames, returnPlanCount, stageBriefs, usePlanFor } from '../plans/index.js';
import { assertFormsHaveItemText, formBriefs } from '../scales/index.js';
import { endRespondentSessions } from './respondent-auth.js';
import { assessCode, assessment } from './tables.js';

/** A new one-time code: ASSESS_CODE_LENGTH characters of the look-alike-free alphabet (~49 bits). */
export function newAssessCode(): string {
  let code = '';
  for (let i = 0; i < ASSESS_CODE_LENGTH; i++) code += ASSESS_CODE_ALPHABET[randomInt(ASSESS_CODE_ALPHABET.length)];
  return code;
}

/** The respondent page of a code (the link and the QR code carry it). */
export const codeUrl = (assesscode: string) => `/a/${assesscode}`;

/**
 * Forms a respondent answers: self-assessment and other-rated scales (archive and registration
 * forms are not scored). Every path that gives a code or begins an assessment takes its forms
 * from here, so a form without its item text is refused here, for all of them (scales' rule).
 */
export async function answerableForms(db: DbOrTx, formcodes: string[], lang: Ctx['lang']): Promise<string[]> {
  const briefs = await formBriefs(db, formcodes, lang);
  const answerable = formcodes.filter((f) => {
    const b = briefs.get(f);
    return b && b.enabled === 1 && (b.formtype === '01' || b.formtype === '04');
  });
  await assertFormsHaveItemText(db, answerable);
  return answerable;
}

/** A person's newest signature on an assessment code (the respondent signs before answering), or undefined. */
export async function latestSignature(db: DbOrTx, cusercode: string): Promise<{ signature: string | null; signedat: Date | null; assesscode: string } | undefined> {
  const [row] = await db
    .select({ signature: assessCode.signature, signedat: assessCode.signedat, assesscode: assessCode.assesscode })
    .from(assessCode)
    .where(and(eq(assessCode.cusercode, cusercode), isNotNull(assessCode.signedat)))
    .orderBy(desc(assessCode.signedat))
    .limit(1);
  return row;
}

export interface NewCode {
  musercode: string;
  cusercode: string;
  plancode: string | null;
  stagecode: string;
  authid: string | null;
  formcodes: string[];
  createdby: string;
  now: Date;
}

/** Stores a code, drawing again on the (astronomically rare) clash with an existing one: the primary key decides. */
export async function insertCode(tx: DbOrTx, c: NewCode): Promise<string> {
  for (;;) {
    const assesscode = newAssessCode();
    const [row] = await tx
      .insert(assessCode)
      .values({ assesscode, ...c, createdat: c.now })
      .onConflictDoNothing({ target: assessCode.assesscode })
      .returning({ assesscode: assessCode.assesscode });
    if (row) return row.assesscode;
  }
}

/** Gives the plan (or stage) to one person already found in scope; one authorised count per code (the warnings domain's rescreen uses it too). */
export async function giveOne(ctx: Ctx, tx: DbOrTx, person: PersonRecord, plancode: string, stagecode: string | undefined): Promise<string> {
  // An anonymised person is kept for statistics only: nobody can be reached through them.
  assertNotAnonymised(person);
  // Withdrawn consent stops every further assessment: a code would be refused at every step.
  await assertNoneWithdrawn(tx, [person]);
  const use = await usePlanFor(tx, plancode, person.musercode, todayIn(ctx.now()));
  if (use.appid !== person.appid)
    invalid({ zh: `计划「${use.planname}」不适用于该测评对象的人群`, en: `The plan “${use.planname}” is for another population than this person’s` });
  const formcodes = await answerableForms(tx, await planFormcodes(tx, plancode, stagecode), ctx.lang);
  if (!formcodes.length) invalid({ zh: `计划「${use.planname}」没有可作答的量表`, en: `The plan “${use.planname}” has no form to answer` });
  const who = ctx.me.userid ?? ctx.me.musercode;
  return insertCode(tx, { musercode: person.musercode, cusercode: person.cusercode, plancode, stagecode: stagecode ?? '', authid: use.authid, formcodes, createdby: who, now: ctx.now() });
}

export const codeHandlers = {
  'as.m.user.insertCUserAssessCode': async ({ cusercode, plancode, stagecode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const assesscode = await ctx.db.transaction((tx) => giveOne(ctx, tx, person, plancode, stagecode));
    await ctx.audit({ result: 'ok', detail: { cusercode, plancode, stagecode: stagecode ?? '', assesscode } });
    return { assesscode, cusercode, url: codeUrl(assesscode) };
  },

  'as.m.user.insertCUserAssessCodes': async ({ cusercodes, plancode, stagecode }, ctx) => {
    const unique = [...new Set(cusercodes)];
    const persons: PersonRecord[] = [];
    for (const c of unique) persons.push(await personInScope(ctx, ctx.db, c));
    // Named all at once, before anything is given, rather than the first met inside the loop.
    await assertNoneWithdrawn(ctx.db, persons);
    // All or nothing: one refusal (say the count runs out at the 6th person) gives no code at all.
    const codes = await ctx.db.transaction(async (tx) => {
      const out: { assesscode: string; cusercode: string; url: string }[] = [];
      for (const p of persons) {
        const assesscode = await giveOne(ctx, tx, p, plancode, stagecode);
        out.push({ assesscode, cusercode: p.cusercode, url: codeUrl(assesscode) });
      }
      return out;
    });
    await ctx.audit({ result: 'ok', detail: { plancode, stagecode: stagecode ?? '', count: codes.length } });
    return { codes };
  },

  'as.m.cuser.getCUserPlan': async ({ cusercode }, ctx) => {
    const person = await personInScope(ctx, ctx.db, cusercode);
    const rows = await ctx.db.select().from(assessCode).where(eq(assessCode.cusercode, person.cusercode)).orderBy(desc(assessCode.createdat), desc(assessCode.assesscode));
    const done = rows.length
      ? await ctx.db
          .select({ assesscode: assessment.assesscode, n: count() })
          .from(assessment)
          .where(inArray(assessment.assesscode, rows.map((r) => r.assesscode)))
          .groupBy(assessment.assesscode)
      : [];
    const doneOf = new Map(done.map((d) => [d.assesscode, Number(d.n)]));
    const plans = await planNames(ctx.db, rows.map((r) => r.plancode ?? ''));
    const stages = await stageBriefs(ctx.db, rows.map((r) => r.stagecode));
    return rows.map((r) => ({
      assesscode: r.assesscode,
      cusercode: r.cusercode,
      musercode: r.musercode,
      plancode: r.plancode ?? '',
      planname: plans.get(r.plancode ?? '') ?? '',
      stagecode: r.stagecode,
      stagename: stages.get(r.stagecode)?.stagename ?? '',
      status: r.status as 'issued' | 'started' | 'finished',
      formcount: r.formcodes.length,
      donecount: doneOf.get(r.assesscode) ?? 0,
      url: codeUrl(r.assesscode),
      createdat: iso(r.createdat),
      finishedat: r.finishedat ? iso(r.finishedat) : null,
    }));
  },

  'as.m.cuser.deleteCUserPlan': async ({ assesscode }, ctx) => {
    await ctx.db.transaction(async (tx) => {
      // The row lock makes a submission that arrives meanwhile wait, then fail on the missing code.
      const [row] = await tx.select().from(assessCode).where(and(eq(assessCode.assesscode, assesscode), scopeWhere(assessCode.musercode, ctx.me))).for('update');
      if (!row) return notFound({ zh: '测评码不存在', en: 'No such assessment code' });
      const [reports] = await tx.select({ n: count() }).from(assessment).where(eq(assessment.assesscode, assesscode));
      if (Number(reports?.n ?? 0) > 0)
        conflict({ zh: '该测评已有提交的量表，不能撤回', en: 'A form of this assessment has been submitted; it cannot be withdrawn' });
      await endRespondentSessions(tx, assesscode);
      await tx.delete(assessCode).where(eq(assessCode.assesscode, assesscode));
      if (row.authid) await returnPlanCount(tx, row.authid);
    });
    await ctx.audit({ result: 'ok', detail: { assesscode } });
    return null;
  },
} satisfies HandlerMap;
