import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { RespondentCaller } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { DAY_MS, preparedOnce, statementsByShape } from '../../kit/index.js';
import type { JobHandlers } from '../../kit/jobs/index.js';
import { hashToken, newToken } from '../auth/index.js';
import { codeStateColumns, codeStateOf, rememberForRequest } from './code-state.js';
import { assessCode, respondentSession } from './tables.js';
import { assertCodeOpen } from './window.js';

/**
 * Respondent tokens: 256 random bits, only the SHA-256 stored, in their own table, so no staff
 * action (which reads `session`) ever accepts one, and no respondent action accepts a staff token.
 * A token opens exactly one given assessment. It lasts a week: a respondent who closes the phone
 * and comes back (the page keeps the token) resumes; one who lost it enters the code again.
 */
const LIFETIME_MS = 7 * 24 * 3600_000;

/**
 * A new session of the code; `starting`: the code is marked started with it. One statement, so
 * both writes are atomic without a transaction around them (begin and commit were two more).
 */
export async function createRespondentSession(db: DbOrTx, now: Date, assesscode: string, starting = false): Promise<string> {
  const token = newToken();
  await openSession(db, { starting }).execute({ tokenhash: hashToken(token), code: assesscode, at: now.toISOString(), expires: new Date(now.getTime() + LIFETIME_MS).toISOString() });
  return token;
}
/** Prepared, with and without the start: every sign-in opens a session. */
const openSession = statementsByShape('respondent_session_open', (db, { starting }: { starting: boolean }, name) => {
  const [code, at] = [sql.placeholder('code'), sql`${sql.placeholder('at')}::timestamptz`];
  const started = db.$with('started').as(
    db.update(assessCode).set({ status: 'started', startedat: at }).where(eq(assessCode.assesscode, code)).returning({ assesscode: assessCode.assesscode }),
  );
  return (starting ? db.with(started) : db)
    .insert(respondentSession)
    .values({ tokenhash: sql.placeholder('tokenhash'), assesscode: code, createdat: at, expiresat: sql`${sql.placeholder('expires')}::timestamptz` })
    .prepare(name);
});

export async function authenticateRespondent(db: Db, now: Date, token: string | undefined): Promise<RespondentCaller> {
  if (!token || token.length > 200) throw new AppError('identityInvalid');
  // The code with its reports and saved answers: the step that follows reads them from here.
  const [row] = await codeOfToken(db).execute({ tokenhash: hashToken(token), now: now.toISOString() });
  if (!row) throw new AppError('identityInvalid', { zh: '测评已失效，请重新输入测评码', en: 'Your assessment session has ended; please enter your code again' });
  const state = codeStateOf(row);
  // Every respondent step passes here: a code whose task or authorisation is closed takes none.
  await assertCodeOpen(db, now, state.code);
  const caller = { assesscode: state.code.assesscode, musercode: state.code.musercode, cusercode: state.code.cusercode };
  rememberForRequest(caller, state);
  return caller;
}

/** The live session's code with its state, prepared: every respondent step but the first reads it. */
const codeOfToken = preparedOnce('respondent_code_of_token', (db, name) =>
  db
    .select(codeStateColumns)
    .from(respondentSession)
    .innerJoin(assessCode, eq(assessCode.assesscode, respondentSession.assesscode))
    .where(and(eq(respondentSession.tokenhash, sql.placeholder('tokenhash')), sql`${respondentSession.expiresat} > ${sql.placeholder('now')}::timestamptz`))
    .prepare(name),
);

/** Ends every respondent session of a code (the code was withdrawn). */
export async function endRespondentSessions(db: DbOrTx, assesscode: string) {
  await db.delete(respondentSession).where(eq(respondentSession.assesscode, assesscode));
}

/**
 * Sessions past their week are refused already (codeOfToken reads only live ones), so a daily run
 * removes them: a token that may come back is the only thing a session row keeps, and without
 * this the table grew by every respondent's every entry.
 */
export const respondentSessionJobs: JobHandlers = {
  'assessments.pruneRespondentSessions': {
    every: DAY_MS,
    async run(_payload, ctx) {
      await ctx.db.delete(respondentSession).where(lt(respondentSession.expiresat, ctx.now()));
    },
  },
};
