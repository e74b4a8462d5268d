import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { preparedOnce } from '../../kit/index.js';
import type { RespondentCaller } from '../../http/context.js';
import { assessCode, assessment, assessProgress } from './tables.js';

/**
 * Where a respondent's code stands: the code with its reports (form -> report id) and the answers
 * saved so far (form -> how many), read in one statement of this domain's own tables. Each
 * respondent step asks for these, and at 50 students at once each statement is what it costs.
 */
export interface CodeState {
  code: typeof assessCode.$inferSelect;
  reports: Map<string, string>;
  saved: Map<string, number>;
}

/** The columns of a CodeState, for a select from assess_code (alone or joined to the session). */
export const codeStateColumns = {
  code: assessCode,
  reports: sql<{ formcode: string; reportid: string }[]>`coalesce((select json_agg(json_build_object('formcode', a.formcode, 'reportid', a.assessid)) from ${assessment} a where a.assesscode = ${assessCode}.assesscode), '[]'::json)`,
  saved: sql<{ formcode: string; count: number }[]>`coalesce((select json_agg(json_build_object('formcode', p.formcode, 'count', jsonb_array_length(p.answers))) from ${assessProgress} p where p.assesscode = ${assessCode}.assesscode), '[]'::json)`,
};

export function codeStateOf(row: { code: CodeState['code']; reports: { formcode: string; reportid: string }[]; saved: { formcode: string; count: number }[] }): CodeState {
  return { code: row.code, reports: new Map(row.reports.map((r) => [r.formcode, r.reportid])), saved: new Map(row.saved.map((s) => [s.formcode, Number(s.count)])) };
}

/** A code's state, or undefined when there is no such code. */
export async function loadCodeState(db: DbOrTx, assesscode: string): Promise<CodeState | undefined> {
  const [row] = await codeStateRead(db).execute({ assesscode });
  return row ? codeStateOf(row) : undefined;
}
const codeStateRead = preparedOnce('code_state', (db, name) =>
  db.select(codeStateColumns).from(assessCode).where(eq(assessCode.assesscode, sql.placeholder('assesscode'))).prepare(name),
);

/**
 * The code state the respondent's token was resolved with, by the caller made for that one
 * request (authenticateRespondent), so the handler does not read the same rows again. Nothing
 * outlives the request: the key is that request's caller object, dropped with it.
 */
const readForRequest = new WeakMap<RespondentCaller, CodeState>();

export function rememberForRequest(caller: RespondentCaller, state: CodeState): void {
  readForRequest.set(caller, state);
}

/** What authenticateRespondent read for this request's caller, if it was the one that made it. */
export const readWithToken = (caller: RespondentCaller): CodeState | undefined => readForRequest.get(caller);
