import { and, eq } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { limitedEntry, startAssessment } from '../assessments/respondent.js';
import { personBriefs } from '../persons/persons.js';
import { task, taskPerson } from './tables.js';

/**
 * A task's respondent entry (as.c.task.login): the task code with the student's number and name
 * as on the roster opens the personal code the task gave them. Two rate-limited steps, as code
 * entries are (failures per address): the task code, then number and name together, so neither a
 * task code nor a member of a class can be guessed; a task outside its window is a clear message
 * that does not count as a failure (a class arriving early is not locked out). A refusal stores
 * nothing but the failed attempt.
 */
const chinaTime = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
const plainName = (s: string) => s.replace(/\s+/g, '').toLowerCase();

export const taskEntryHandlers = {
  'as.c.task.login': async ({ taskcode, studentno, realname }, ctx) => {
    const t = await limitedEntry(ctx, async () => {
      const [row] = await ctx.db.select().from(task).where(eq(task.taskcode, taskcode));
      return row ?? notFound({ zh: '任务码不存在，请核对后重新输入', en: 'Unknown task code; please check it and try again' });
    });
    const now = ctx.now();
    if (now < t.startat)
      invalid({ zh: `测评任务「${t.taskname}」尚未开始，开始时间：${chinaTime(t.startat)}`, en: `The task “${t.taskname}” has not started yet; it starts at ${chinaTime(t.startat)} (UTC+8)` });
    if (now >= t.endat) invalid({ zh: `测评任务「${t.taskname}」已于 ${chinaTime(t.endat)} 结束`, en: `The task “${t.taskname}” ended at ${chinaTime(t.endat)} (UTC+8)` });
    return limitedEntry(ctx, async () => {
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
      return startAssessment(ctx, matches[0]!.assesscode, 'as.c.task.login', { taskid: t.taskid });
    });
  },
} satisfies HandlerMap;
