/**
 * Personal codes in bulk, for other domains (group-assessment tasks): give one plan to many
 * persons at once, read the state of many codes, withdraw codes nobody has opened.
 */
import { and, count, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { conflict, invalid } from '../../http/errors.js';
import { todayIn } from '../../kit/index.js';
import { planFormcodes, returnPlanCount, usePlanCounts, usePlanFor } from '../plans/index.js';
import { createPerson } from '../persons/index.js';
import { answerableForms, insertCode, newAssessCode } from './codes.js';
import { assessCode, assessment } from './tables.js';

export type CodeStatus = 'issued' | 'started' | 'finished';
export type Progress = 'notstarted' | 'inprogress' | 'finished';
export const progressOf = (status: string): Progress => (status === 'finished' ? 'finished' : status === 'started' ? 'inprogress' : 'notstarted');

/**
 * Gives the whole plan to every person (all of `musercode` and of the plan's app), one code each,
 * in the caller's transaction: the plan counts are taken at once (all or none), the codes inserted
 * in batches. Answers the codes in the order of `cusercodes`.
 */
export async function issueCodes(ctx: Ctx, tx: DbOrTx, musercode: string, appid: string, plancode: string, cusercodes: string[]): Promise<string[]> {
  if (!cusercodes.length) return [];
  const use = await usePlanFor(tx, plancode, musercode, todayIn(ctx.now()));
  if (use.appid !== appid)
    invalid({ zh: `计划「${use.planname}」不适用于该团体的人群`, en: `The plan “${use.planname}” is for another population than this team’s` });
  // usePlanFor took one count; take the rest in one statement.
  if (use.authid && cusercodes.length > 1) await usePlanCounts(tx, plancode, musercode, todayIn(ctx.now()), cusercodes.length - 1);
  const formcodes = await answerableForms(tx, await planFormcodes(tx, plancode), ctx.lang);
  if (!formcodes.length) invalid({ zh: `计划「${use.planname}」没有可作答的量表`, en: `The plan “${use.planname}” has no form to answer` });
  const createdby = ctx.me.userid ?? ctx.me.musercode;
  const codes = cusercodes.map(() => newAssessCode());
  for (let i = 0; i < codes.length; i += 500) {
    const rows = codes.slice(i, i + 500).map((assesscode, j) => ({
      assesscode,
      musercode,
      cusercode: cusercodes[i + j]!,
      plancode,
      stagecode: '',
      authid: use.authid,
      formcodes,
      createdby,
      createdat: ctx.now(),
    }));
    // A clash with an existing code (about 1 in 10^12 per pair) fails the transaction; the caller retries.
    await tx.insert(assessCode).values(rows);
  }
  return codes;
}

export interface CodeState {
  status: CodeStatus;
  startedat: Date | null;
  finishedat: Date | null;
}

/** The state of many codes at once. */
export async function codeStates(db: DbOrTx, assesscodes: string[]): Promise<Map<string, CodeState>> {
  const out = new Map<string, CodeState>();
  for (let i = 0; i < assesscodes.length; i += 5000) {
    const rows = await db
      .select({ assesscode: assessCode.assesscode, status: assessCode.status, startedat: assessCode.startedat, finishedat: assessCode.finishedat })
      .from(assessCode)
      .where(inArray(assessCode.assesscode, assesscodes.slice(i, i + 5000)));
    for (const r of rows) out.set(r.assesscode, { status: r.status as CodeStatus, startedat: r.startedat, finishedat: r.finishedat });
  }
  return out;
}

/** How many of the codes were opened or answered (a started code or any report). */
export async function answeredCount(db: DbOrTx, assesscodes: string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < assesscodes.length; i += 5000) {
    const part = assesscodes.slice(i, i + 5000);
    const [a] = await db.select({ n: count() }).from(assessCode).where(and(inArray(assessCode.assesscode, part), inArray(assessCode.status, ['started', 'finished'])));
    n += Number(a?.n ?? 0);
  }
  return n;
}

/**
 * Withdraws codes nobody has opened, giving plan counts back; refused (conflict; the caller's
 * transaction rolls back) if one was opened or has a report. The rows are locked first, so a
 * respondent opening a code meanwhile waits and then finds it gone.
 */
export async function withdrawUnopenedCodes(tx: DbOrTx, assesscodes: string[]): Promise<void> {
  for (let i = 0; i < assesscodes.length; i += 5000) {
    const part = assesscodes.slice(i, i + 5000);
    const rows = await tx.select({ status: assessCode.status, authid: assessCode.authid }).from(assessCode).where(inArray(assessCode.assesscode, part)).for('update');
    const [reports] = await tx.select({ n: count() }).from(assessment).where(inArray(assessment.assesscode, part));
    if (rows.some((r) => r.status !== 'issued') || Number(reports?.n ?? 0) > 0)
      conflict({ zh: '已有测评对象开始作答，不能撤回', en: 'Someone has started answering; the assessment cannot be withdrawn' });
    // Respondent sessions and saved answers go with the codes (foreign keys cascade).
    await tx.delete(assessCode).where(inArray(assessCode.assesscode, part));
    const given = new Map<string, number>();
    for (const r of rows) if (r.authid) given.set(r.authid, (given.get(r.authid) ?? 0) + 1);
    for (const [authid, n] of given) await returnPlanCount(tx, authid, n);
  }
}

export interface Buyer {
  musercode: string;
  realname: string;
  gender: '01' | '02';
  phone: string;
  now: Date;
}

/**
 * One assessment of a plan bought in the institution's shop (the orders domain, in the payment's
 * transaction): the buyer becomes a new person of the institution in the plan's population (an
 * unverified name and phone are never matched to an existing person) and gets one code, its count
 * taken atomically by usePlanFor. Refusals (plan disabled, count used up, nothing to answer) throw
 * as for staff giving the plan.
 */
export async function issueBoughtCode(tx: DbOrTx, buyer: Buyer, plancode: string): Promise<string> {
  const use = await usePlanFor(tx, plancode, buyer.musercode, todayIn(buyer.now));
  const formcodes = await answerableForms(tx, await planFormcodes(tx, plancode), 'zh-CN');
  if (!formcodes.length) invalid({ zh: `计划「${use.planname}」没有可作答的量表`, en: `The plan “${use.planname}” has no form to answer` });
  const { cusercode } = await createPerson(tx, {
    musercode: buyer.musercode,
    appid: use.appid,
    realname: buyer.realname,
    gender: buyer.gender,
    phonenumber: buyer.phone,
    source: 'qrcode',
    now: buyer.now,
  });
  return insertCode(tx, { musercode: buyer.musercode, cusercode, plancode, stagecode: '', authid: use.authid, formcodes, createdby: 'shop', now: buyer.now });
}

/** Withdraws one code if nobody opened it (its count given back); answers whether it was withdrawn. */
export async function withdrawIfUnopened(tx: DbOrTx, assesscode: string): Promise<boolean> {
  const state = (await codeStates(tx, [assesscode])).get(assesscode);
  if (!state) return true;
  if (state.status !== 'issued') return false;
  await withdrawUnopenedCodes(tx, [assesscode]);
  return true;
}
