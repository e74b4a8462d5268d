import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, fail, invalid, notFound, type Message } from '../../http/errors.js';
import { limitedEntry, startAssessment } from '../assessments/index.js';
import { keptSince, preparedOnce } from '../../kit/index.js';
import { personBriefs } from '../persons/index.js';
import { clearPinTries, pinMatches, takePinTry, taskPinHandlers } from './pin.js';
import { taskByCode, taskClosedMessage, taskOfCode, type TaskRecord } from './store.js';
import { taskPerson } from './tables.js';

/**
 * A task's respondent entry (as.c.task.login): the task code with the student's number and name
 * as on the roster (and the PIN of their slip, when the task asks for one) opens the personal
 * code the task gave them. Rate-limited as code entries are (failures per address): a wrong task
 * code, number, name or PIN counts, so neither a task code nor a member of a class can be guessed;
 * wrong PINs also count per student (pin.ts). A task outside its window is a clear message that
 * does not count as a failure (a class arriving early is not locked out). A refusal stores nothing
 * but the failed attempt.
 */
const plainName = (s: string) => s.replace(/\s+/g, '').toLowerCase();

const unknownTask = (): never => notFound({ zh: '任务码不存在，请核对后重新输入', en: 'Unknown task code; please check it and try again' });
/** One sentence for a wrong number, name or PIN: the refusal does not tell which was wrong. */
const noMatch = (pinrequired: number): never =>
  notFound(
    pinrequired
      ? { zh: '学号、姓名或口令与名单不符，请核对后重新输入；如仍有问题请告诉老师', en: 'Your number, name or PIN does not match the class list; please check them, or tell your teacher' }
      : { zh: '学号或姓名与名单不符，请核对后重新输入；如仍有问题请告诉老师', en: 'Your number or name does not match the class list; please check them, or tell your teacher' },
  );
const NEEDS_PIN: Message = { zh: '本次测评需要输入纸条上的6位口令', en: 'This assessment asks for the 6-digit PIN on your slip' };

/** The second factor of a PIN task: the student's PIN, under the per-student lock. */
async function checkPin(ctx: Ctx, t: TaskRecord, person: typeof taskPerson.$inferSelect, pin: string) {
  if (!person.pinhash)
    invalid({ zh: '你的口令纸条还没有打印，请告诉老师；也可以用纸条上的个人测评码进入', en: 'Your slip with a PIN has not been printed yet; please tell your teacher' });
  if (!(await takePinTry(ctx.db, t.taskid, person.cusercode, ctx.config.taskPinFailures)))
    fail('locked', {
      zh: '口令输错次数过多，已锁定；请用纸条上的个人测评码进入，或请老师重新打印纸条',
      en: 'Too many wrong PINs: sign-in by number and name is locked. Use the personal code on your slip, or ask your teacher to print a new slip',
    });
  if (!pinMatches(person.pinhash!, pin)) noMatch(1);
  await clearPinTries(ctx.db, t.taskid, person.cusercode);
}

/** Prepared: the roster rows of a number in a task, read by every student's sign-in. */
const rosterRowsRead = preparedOnce('task_roster_rows', (db, name) =>
  db
    .select()
    .from(taskPerson)
    .where(and(eq(taskPerson.taskid, sql.placeholder('taskid')), eq(taskPerson.studentno, sql.placeholder('studentno'))))
    .prepare(name),
);

export const taskEntryHandlers = {
  'as.c.task.getTask': async ({ taskcode }, ctx) => {
    const out = await limitedEntry(ctx, async () => {
      const t = (await taskByCode(ctx.db, taskcode)) ?? unknownTask();
      const closed = taskClosedMessage(t, ctx.now());
      return closed ? { closed } : { task: { taskname: t.taskname, pinrequired: t.pinrequired as 0 | 1 } };
    });
    return out.task ?? invalid(out.closed!);
  },

  'as.c.task.login': async ({ taskcode, studentno, realname, pin }, ctx) => {
    const out = await limitedEntry(ctx, async () => {
      const since = keptSince(ctx.db);
      const t = (await taskByCode(ctx.db, taskcode)) ?? unknownTask();
      // Outside the window, or a PIN task signed in without one (the screen then asks for it):
      // answered (after the entry counts as fine) with the reason, refused below.
      const closed = taskClosedMessage(t, ctx.now());
      if (closed) return { closed };
      if (t.pinrequired && !pin) return { closed: NEEDS_PIN };
      const rows = await rosterRowsRead(ctx.db).execute({ taskid: t.taskid, studentno });
      const people = await personBriefs(ctx.db, rows.map((r) => r.cusercode));
      const matches = rows.filter((r) => {
        const p = people.get(r.cusercode);
        return p && !p.deleted && plainName(p.realname) === plainName(realname);
      });
      if (!matches.length) noMatch(t.pinrequired);
      if (matches.length > 1)
        conflict({ zh: '名单中有相同的学号和姓名，请使用老师发的个人测评码', en: 'The class list has this number and name twice; please use the personal code your teacher gives you' });
      if (t.pinrequired) await checkPin(ctx, t, matches[0]!, pin!);
      // The task's window was judged above at this request's time, and the person read to match the name.
      const known = { person: people.get(matches[0]!.cusercode), taskChecked: true as const };
      // Every later step of the code checks this task's window: it is the task read here (the
      // roster row is the code's), so those steps do not read it again.
      taskOfCode.keep(ctx.db, since, [matches[0]!.assesscode], t);
      return { session: await startAssessment(ctx, matches[0]!.assesscode, 'as.c.task.login', { taskid: t.taskid }, known) };
    });
    return out.session ?? invalid(out.closed!);
  },

  ...taskPinHandlers,
} satisfies HandlerMap;
