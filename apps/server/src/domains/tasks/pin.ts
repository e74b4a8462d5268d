/**
 * The optional second factor of the task sign-in (issue 27): a per-student PIN printed on the
 * slip. Per task, off by default: a school turns it on for the exercise that needs it (a screening
 * whose answers a classmate must not give for someone) and prints the class's slips for it, while
 * a quick class survey keeps the plain number-and-name sign-in. A per-institution switch would
 * force slips on every task of the school.
 *
 * Only a salted SHA-256 of each PIN is kept. A slow hash would buy nothing: the same row names the
 * personal code, a stronger credential stored as it is typed, and a slow hash would make printing
 * the slips of a whole school take minutes. What protects the PIN is the per-student lock (a few
 * wrong PINs, then only a new slip opens it) and the per-address limit of code entries.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, count, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import { TASK_PIN_LENGTH } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid, notFound } from '../../http/errors.js';
import { codeStates } from '../assessments/index.js';
import { taskClosedMessage, taskInScope, taskStatusAt, teamOfTask } from './store.js';
import { task, taskPerson } from './tables.js';

const digest = (salt: string, pin: string) => createHash('sha256').update(`${salt}:${pin}`).digest('hex');

/** A new PIN and what is stored of it. */
export function drawPin(): { pin: string; pinhash: string } {
  const pin = String(randomInt(10 ** TASK_PIN_LENGTH)).padStart(TASK_PIN_LENGTH, '0');
  const salt = randomBytes(16).toString('hex');
  return { pin, pinhash: `${salt}:${digest(salt, pin)}` };
}

/** Whether `pin` is the one stored (constant time). */
export function pinMatches(pinhash: string, pin: string): boolean {
  const [salt, want] = pinhash.split(':');
  if (!salt || !want) return false;
  return timingSafeEqual(Buffer.from(digest(salt, pin), 'hex'), Buffer.from(want, 'hex'));
}

/**
 * Takes one PIN try of a student: answers false when they are locked. The try is counted before
 * the PIN is compared, in one conditional UPDATE, so parallel guesses queue on the row and at most
 * `limit` are ever compared; a right PIN gives the count back to zero.
 */
export async function takePinTry(db: DbOrTx, taskid: string, cusercode: string, limit: number): Promise<boolean> {
  const taken = await db
    .update(taskPerson)
    .set({ pinfailures: sql`${taskPerson.pinfailures} + 1` })
    .where(and(eq(taskPerson.taskid, taskid), eq(taskPerson.cusercode, cusercode), sql`${taskPerson.pinfailures} < ${limit}`))
    .returning({ cusercode: taskPerson.cusercode });
  return taken.length > 0;
}

export async function clearPinTries(db: DbOrTx, taskid: string, cusercode: string) {
  await db
    .update(taskPerson)
    .set({ pinfailures: 0 })
    .where(and(eq(taskPerson.taskid, taskid), eq(taskPerson.cusercode, cusercode)));
}

export const taskPinHandlers = {
  'as.m.assess.getAssessTaskPin': async ({ taskid }, ctx) => {
    const t = await taskInScope(ctx, ctx.db, taskid);
    const of = eq(taskPerson.taskid, t.taskid);
    const [[all], [pinned], [locked]] = await Promise.all([
      ctx.db.select({ n: count() }).from(taskPerson).where(of),
      ctx.db
        .select({ n: count() })
        .from(taskPerson)
        .where(and(of, isNotNull(taskPerson.pinhash))),
      ctx.db
        .select({ n: count() })
        .from(taskPerson)
        .where(and(of, gte(taskPerson.pinfailures, ctx.config.taskPinFailures))),
    ]);
    return {
      pinrequired: t.pinrequired as 0 | 1,
      total: Number(all?.n ?? 0),
      withpin: Number(pinned?.n ?? 0),
      locked: Number(locked?.n ?? 0),
    };
  },

  'as.m.assess.updateAssessTaskPin': async ({ taskid, pinrequired }, ctx) => {
    const t = await taskInScope(ctx, ctx.db, taskid);
    await ctx.db.update(task).set({ pinrequired }).where(eq(task.taskid, t.taskid));
    await ctx.audit({ result: 'ok', detail: { taskid, old: t.pinrequired, new: pinrequired } });
    return null;
  },

  'as.m.assess.resetAssessTaskPins': async ({ taskid, teamid, cusercode }, ctx) => {
    const t = await taskInScope(ctx, ctx.db, taskid);
    if (teamid) await teamOfTask(ctx.db, taskid, teamid);
    const rows = await ctx.db
      .select({ cusercode: taskPerson.cusercode, assesscode: taskPerson.assesscode })
      .from(taskPerson)
      .where(
        and(
          eq(taskPerson.taskid, taskid),
          teamid ? eq(taskPerson.teamid, teamid) : undefined,
          cusercode ? eq(taskPerson.cusercode, cusercode) : undefined,
        ),
      );
    if (cusercode && !rows.length) notFound({ zh: '该测评对象不在此任务中', en: 'This person is not in the task' });
    if (!t.pinrequired) invalid({ zh: '该任务未开启个人口令', en: 'This task does not ask for PINs' });
    if (taskStatusAt(t, ctx.now()) === 'ended') invalid(taskClosedMessage(t, ctx.now())!);
    // A student who finished needs no PIN any more: their slip prints without one.
    const states = await codeStates(
      ctx.db,
      rows.map((r) => r.assesscode),
    );
    const open = rows.filter((r) => states.get(r.assesscode)?.status !== 'finished');
    const drawn = open.map((r) => ({ cusercode: r.cusercode, ...drawPin() }));
    await ctx.db.transaction(async (tx) => {
      for (let i = 0; i < drawn.length; i += 500) {
        const part = drawn.slice(i, i + 500);
        const cases = sql.join(
          part.map((d) => sql`when ${d.cusercode} then ${d.pinhash}`),
          sql` `,
        );
        await tx
          .update(taskPerson)
          .set({ pinhash: sql`case ${taskPerson.cusercode} ${cases} end`, pinfailures: 0 })
          .where(
            and(
              eq(taskPerson.taskid, taskid),
              inArray(
                taskPerson.cusercode,
                part.map((d) => d.cusercode),
              ),
            ),
          );
      }
    });
    await ctx.audit({
      result: 'ok',
      detail: { taskid, teamid: teamid ?? '', cusercode: cusercode ?? '', count: drawn.length },
    });
    return { rows: drawn.map(({ cusercode: c, pin }) => ({ cusercode: c, pin })) };
  },
} satisfies HandlerMap;
