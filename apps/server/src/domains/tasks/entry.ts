import { and, eq } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { limitedEntry, startAssessment } from '../assessments/respondent.js';
import { personBriefs } from '../persons/persons.js';
import { taskByCode, taskStatusAt } from './store.js';
import { taskPerson } from './tables.js';

/**
 * A task's respondent entry (as.c.task.login): the task code with the student's number and name
 * as on the roster opens the personal code the task gave them. Rate-limited as code entries are
 * (failures per address): a wrong task code, number or name counts, so neither a task code nor a
 * member of a class can be guessed; a task outside its window is a clear message that does not
 * count as a failure (a class arriving early is not locked out). A refusal stores nothing but the
 * failed attempt.
 */
const chinaTime = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
const plainName = (s: string) => s.replace(/\s+/g, '').toLowerCase();

export const taskEntryHandlers = {
  'as.c.task.login': async ({ taskcode, studentno, realname }, ctx) => {
    const out = await limitedEntry(ctx, async () => {
      const t = (await taskByCode(ctx.db, taskcode)) ?? notFound({ zh: '任务码不存在，请核对后重新输入', en: 'Unknown task code; please check it and try again' });
      // Outside the window: answered (after the entry counts as fine) with the reason, refused below.
      const status = taskStatusAt(t, ctx.now());
      if (status === 'pending')
        return { closed: { zh: `测评任务「${t.taskname}」尚未开始，开始时间：${chinaTime(t.startat)}`, en: `The task “${t.taskname}” has not started yet; it starts at ${chinaTime(t.startat)} (UTC+8)` } };
      if (status === 'ended') return { closed: { zh: `测评任务「${t.taskname}」已于 ${chinaTime(t.endat)} 结束`, en: `The task “${t.taskname}” ended at ${chinaTime(t.endat)} (UTC+8)` } };
      const rows = await ctx.db.select().from(taskPerson).where(and(eq(taskPerson.taskid, t.taskid), eq(taskPerson.studentno, studentno)));
      const people = await personBriefs(ctx.db, rows.map((r) => r.cusercode));
      const matches = rows.filter((r) => {
        const p = people.get(r.cusercode);
        return p && !p.deleted && plainName(p.realname) === plainName(realname);
      });
      // One sentence for a wrong number and a wrong name: the refusal does not tell which exists.
      if (!matches.length)
        notFound({ zh: '学号或姓名与名单不符，请核对后重新输入；如仍有问题请告诉老师', en: 'Your number or name does not match the class list; please check them, or tell your teacher' });
      if (matches.length > 1)
        conflict({ zh: '名单中有相同的学号和姓名，请使用老师发的个人测评码', en: 'The class list has this number and name twice; please use the personal code your teacher gives you' });
      return { session: await startAssessment(ctx, matches[0]!.assesscode, 'as.c.task.login', { taskid: t.taskid }) };
    });
    return out.session ?? invalid(out.closed!);
  },
} satisfies HandlerMap;
