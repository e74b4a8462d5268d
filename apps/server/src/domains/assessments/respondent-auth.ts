import { and, eq, gt } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { RespondentCaller } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { hashToken, newToken } from '../auth/index.js';
import { assessCode, respondentSession } from './tables.js';
import { assertCodeOpen } from './window.js';

/**
 * Respondent tokens: 256 random bits, only the SHA-256 stored, in their own table, so no staff
 * action (which reads `session`) ever accepts one, and no respondent action accepts a staff token.
 * A token opens exactly one given assessment. It lasts a week: a respondent who closes the phone
 * and comes back (the page keeps the token) resumes; one who lost it enters the code again.
 */
const LIFETIME_MS = 7 * 24 * 3600_000;

export async function createRespondentSession(db: DbOrTx, now: Date, assesscode: string): Promise<string> {
  const token = newToken();
  await db.insert(respondentSession).values({ tokenhash: hashToken(token), assesscode, createdat: now, expiresat: new Date(now.getTime() + LIFETIME_MS) });
  return token;
}

export async function authenticateRespondent(db: Db, now: Date, token: string | undefined): Promise<RespondentCaller> {
  if (!token || token.length > 200) throw new AppError('identityInvalid');
  const [row] = await db
    .select({ assesscode: assessCode.assesscode, musercode: assessCode.musercode, cusercode: assessCode.cusercode, authid: assessCode.authid })
    .from(respondentSession)
    .innerJoin(assessCode, eq(assessCode.assesscode, respondentSession.assesscode))
    .where(and(eq(respondentSession.tokenhash, hashToken(token)), gt(respondentSession.expiresat, now)));
  if (!row) throw new AppError('identityInvalid', { zh: '测评已失效，请重新输入测评码', en: 'Your assessment session has ended; please enter your code again' });
  // Every respondent step passes here: a code whose task or authorisation is closed takes none.
  await assertCodeOpen(db, now, row);
  return { assesscode: row.assesscode, musercode: row.musercode, cusercode: row.cusercode };
}

/** Ends every respondent session of a code (the code was withdrawn). */
export async function endRespondentSessions(db: DbOrTx, assesscode: string) {
  await db.delete(respondentSession).where(eq(respondentSession.assesscode, assesscode));
}

