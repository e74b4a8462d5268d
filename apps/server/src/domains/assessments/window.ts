import type { DbOrTx } from '../../db/database.js';
import { AppError, type Message } from '../../http/errors.js';
import { todayIn } from '../../kit/index.js';
import { authorisationWindow } from '../plans/index.js';
import { assessmentHooks } from './hooks.js';

/**
 * The window of what a code belongs to (issue 27 §6): the task that gave it (start to end, as the
 * tasks domain answers through the hook domains/index.ts hands in) and
 * the plan authorisation whose count it used (its dates, China calendar). A code given one by
 * one from the institution's own plan, or through its QR link, has no window beyond its own
 * existence (a withdrawn code is refused where it is looked up) and its token's lifetime.
 *
 * Checked in two places that every respondent step passes through, so a step added later cannot
 * forget it: where a code is opened (startAssessment: as.c.exam.start, as.c.task.login) and where
 * a respondent token is resolved (authenticateRespondent: every action with access 'respondent').
 */
export interface WindowedCode {
  assesscode: string;
  authid: string | null;
}

/**
 * Why the code takes no step at `now`, or null while its window is open. `taskChecked`: the caller
 * has just judged, at `now`, the window of the task that gave this code (the task sign-in, which
 * found the code through that task), so it is not read again.
 */
export async function closedWindow(db: DbOrTx, now: Date, code: WindowedCode, taskChecked = false): Promise<Message | null> {
  const closed = taskChecked ? null : await assessmentHooks().taskWindow(db, code.assesscode, now);
  if (closed || !code.authid) return closed;
  const auth = await authorisationWindow(db, code.authid);
  if (!auth) return null;
  const today = todayIn(now);
  if (today < auth.startdate)
    return {
      zh: `计划「${auth.planname}」的授权尚未开始，开始日期：${auth.startdate}`,
      en: `The authorisation of the plan “${auth.planname}” starts on ${auth.startdate}`,
    };
  if (today > auth.enddate)
    return {
      zh: `计划「${auth.planname}」的授权已于 ${auth.enddate} 结束，请联系机构`,
      en: `The authorisation of the plan “${auth.planname}” ended on ${auth.enddate}; please contact the institution`,
    };
  return null;
}

/** Refuses (validation, with the sentence) a code whose window is closed; a refusal changes nothing. */
export async function assertCodeOpen(db: DbOrTx, now: Date, code: WindowedCode, taskChecked = false): Promise<void> {
  const closed = await closedWindow(db, now, code, taskChecked);
  if (closed) throw new AppError('validation', closed);
}
