import { and, count, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { conflict, notFound } from '../../http/errors.js';
import { endRespondentSessions } from './respondent-auth.js';
import { assessCode, assessProgress } from './tables.js';

/**
 * Resets a person's attempts (as.m.exam.clearCUserAssessCount): every given assessment of the
 * person (or the one named) that is not finished goes back to "issued". Answers saved in progress
 * are discarded and open respondent sessions end, so the respondent starts again with the same
 * code; forms already submitted stay submitted (reports are never deleted), and a finished code is
 * left alone (a retake is a new code). The codes are locked, so a submission in flight either
 * lands before the reset or waits for it. The caller has found the person in scope.
 */
export async function resetUnfinishedCodes(tx: DbOrTx, cusercode: string, assesscode?: string): Promise<{ codes: number; progress: number }> {
  const rows = await tx
    .select({ assesscode: assessCode.assesscode, status: assessCode.status })
    .from(assessCode)
    .where(and(eq(assessCode.cusercode, cusercode), assesscode ? eq(assessCode.assesscode, assesscode) : undefined))
    .for('update');
  if (assesscode && !rows.length) return notFound({ zh: '测评码不存在', en: 'No such assessment code' });
  if (assesscode && rows[0]!.status === 'finished') conflict({ zh: '该测评已完成，不能重置；请重新分配测评', en: 'This assessment is finished and cannot be reset; give a new one instead' });
  const codes = rows.filter((r) => r.status !== 'finished').map((r) => r.assesscode);
  if (!codes.length) return { codes: 0, progress: 0 };
  const [saved] = await tx.select({ n: count() }).from(assessProgress).where(inArray(assessProgress.assesscode, codes));
  await tx.delete(assessProgress).where(inArray(assessProgress.assesscode, codes));
  for (const c of codes) await endRespondentSessions(tx, c);
  await tx.update(assessCode).set({ status: 'issued', startedat: null }).where(and(inArray(assessCode.assesscode, codes), ne(assessCode.status, 'finished')));
  return { codes: codes.length, progress: Number(saved?.n ?? 0) };
}
