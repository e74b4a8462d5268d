/** Tasks: a plan for some teams in a time window, and the personal codes of their rosters (menu 00041). */
import { and, asc, countDistinct, desc, eq, gt, inArray, isNull, lte, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { contains, iso, newId, paged } from '../../kit/index.js';
import { ownedBy, ownerAccount, accountNames } from '../accounts/index.js';
import { codeUrl, answeredCount, codeStates, issueCodes, progressOf, withdrawUnopenedCodes } from '../assessments/index.js';
import { livingPerson, personBriefs, personNameLike } from '../persons/index.js';
import { findPlan, assertPlanHasItemText, planNames } from '../plans/index.js';
import { newTaskCode, taskInScope, teamOfTask, taskPeople, taskStatusAt, taskTeams, teamNames, type TaskRecord } from './store.js';
import { task, taskPerson, taskTeam, team, teamMember } from './tables.js';

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505' || (e as { cause?: { code?: string } })?.cause?.code === '23505';

/** The living teams named, all of `musercode` and of the plan's app; another institution's team is not found. */
async function teamsForTask(db: DbOrTx, musercode: string, teamids: string[], appid: string) {
  const ids = [...new Set(teamids)];
  const rows = await db
    .select()
    .from(team)
    .where(and(inArray(team.teamid, ids), eq(team.musercode, musercode), isNull(team.deletedat)));
  if (rows.length !== ids.length) notFound({ zh: '团体不存在', en: 'No such team' });
  const other = rows.find((t) => t.appid !== appid);
  if (other) invalid({ zh: '计划的人群与团体不一致（学生班级需用学生计划）', en: 'The plan is for another population than the team (classes need a student plan)' });
  return ids;
}

const window = (startat: Date, endat: Date) => {
  if (!(startat < endat)) invalid({ zh: '结束时间须晚于开始时间', en: 'The end must be after the start' });
};

/** Locks a task in scope for a change (another institution's is not found). */
async function lockTask(ctx: Ctx, tx: DbOrTx, taskid: string): Promise<TaskRecord> {
  const t = await taskInScope(ctx, tx, taskid);
  await tx.select({ taskid: task.taskid }).from(task).where(eq(task.taskid, taskid)).for('update');
  return t;
}

function statusWhere(status: string | undefined, now: Date): SQL | undefined {
  if (status === 'pending') return gt(task.startat, now);
  if (status === 'running') return and(lte(task.startat, now), gt(task.endat, now));
  if (status === 'ended') return lte(task.endat, now);
  return undefined;
}

/** Persons on the rosters of the teams now (one person on two teams counts once). */
async function rosterCount(db: DbOrTx, teamids: string[]): Promise<number> {
  if (!teamids.length) return 0;
  const [r] = await db
    .select({ n: countDistinct(teamMember.cusercode) })
    .from(teamMember)
    .where(and(inArray(teamMember.teamid, teamids), livingPerson(teamMember.cusercode)));
  return Number(r?.n ?? 0);
}

export const taskCrudHandlers = {
  'as.m.assess.getTaskList': async ({ musercode, taskname, status, page, pageSize }, ctx) => {
    const now = ctx.now();
    const where = and(ownedBy(ctx, task.musercode, musercode), contains(task.taskname, taskname), statusWhere(status, now));
    const { total, rows } = await paged(ctx.db, ctx.db.select().from(task).where(where).$dynamic(), [desc(task.startat), asc(task.taskid)], { page, pageSize });
    const [names, plans] = await Promise.all([accountNames(ctx.db, rows.map((r) => r.musercode)), planNames(ctx.db, rows.map((r) => r.plancode))]);
    const out = [];
    for (const r of rows) {
      const teams = await taskTeams(ctx.db, r.taskid);
      const people = await taskPeople(ctx.db, r.taskid);
      out.push({
        taskid: r.taskid,
        musercode: r.musercode,
        insname: names.get(r.musercode) ?? '',
        taskname: r.taskname,
        taskcode: r.taskcode,
        plancode: r.plancode,
        planname: plans.get(r.plancode) ?? '',
        startat: iso(r.startat),
        endat: iso(r.endat),
        status: taskStatusAt(r, now),
        teams: teams.map(({ teamid, teamname }) => ({ teamid, teamname })),
        rostercount: await rosterCount(ctx.db, teams.map((t) => t.teamid)),
        issuedcount: people.length,
        answeredcount: await answeredCount(ctx.db, people.map((p) => p.assesscode)),
        createdat: iso(r.createdat),
      });
    }
    return { total, rows: out };
  },

  'as.m.assess.insertAssessTask': async ({ musercode, taskname, plancode, teamids, startat, endat }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const p = await findPlan(ctx, ctx.db, plancode, false);
    await assertPlanHasItemText(ctx.db, plancode);
    const start = new Date(startat);
    const end = new Date(endat);
    window(start, end);
    const ids = await teamsForTask(ctx.db, owner.musercode, teamids, p.appid);
    const taskid = newId('TK');
    let taskcode = '';
    for (let attempt = 0; !taskcode; attempt++) {
      const code = newTaskCode();
      try {
        await ctx.db.transaction(async (tx) => {
          await tx.insert(task).values({ taskid, musercode: owner.musercode, taskname, plancode, taskcode: code, startat: start, endat: end, createdby: ctx.me.userid ?? ctx.me.musercode, createdat: ctx.now() });
          await tx.insert(taskTeam).values(ids.map((teamid) => ({ taskid, teamid })));
        });
        taskcode = code;
      } catch (e) {
        // A task code drawn twice (about 1 in 10^12): draw again.
        if (!isUniqueViolation(e) || attempt > 5) throw e;
      }
    }
    await ctx.audit({ result: 'ok', detail: { taskid, target: owner.musercode, plancode, teams: ids.length } });
    return { taskid, taskcode };
  },

  'as.m.assess.updateAssessTask': async ({ taskid, taskname, plancode, teamids, startat, endat }, ctx) => {
    const change = await ctx.db.transaction(async (tx) => {
      const t = await lockTask(ctx, tx, taskid);
      const people = await taskPeople(tx, taskid);
      const start = startat ? new Date(startat) : t.startat;
      const end = endat ? new Date(endat) : t.endat;
      window(start, end);
      const newPlan = plancode && plancode !== t.plancode ? await findPlan(ctx, tx, plancode, false) : null;
      if (newPlan) {
        await assertPlanHasItemText(tx, newPlan.plancode);
        if (await answeredCount(tx, people.map((p) => p.assesscode)))
          conflict({ zh: '该任务已有人作答，不能更换测评计划', en: 'Someone has answered this task; its plan cannot change' });
        // Codes of the old plan would give the old forms: withdrawn; giving codes again gives the new plan.
        await withdrawUnopenedCodes(tx, people.map((p) => p.assesscode));
      }
      const appid = newPlan?.appid ?? (await findPlan(ctx, tx, t.plancode, false)).appid;
      let teamsChanged = 0;
      const current = (await taskTeams(tx, taskid)).map((x) => x.teamid);
      if (newPlan && !teamids) {
        const apps = await tx.selectDistinct({ appid: team.appid }).from(team).where(inArray(team.teamid, current));
        if (apps.some((a) => a.appid !== appid)) invalid({ zh: '计划的人群与团体不一致', en: 'The plan is for another population than the task’s teams' });
      }
      if (teamids) {
        const ids = await teamsForTask(tx, t.musercode, teamids, appid);
        const removed = current.filter((id) => !ids.includes(id));
        const leaving = people.filter((p) => removed.includes(p.teamid)).map((p) => p.assesscode);
        if (!newPlan && leaving.length) {
          if (await answeredCount(tx, leaving)) conflict({ zh: '被移除的团体已有人作答，不能移除', en: 'Someone of a team taken off has answered; the team cannot be taken off' });
          await withdrawUnopenedCodes(tx, leaving);
        }
        if (removed.length) await tx.delete(taskTeam).where(and(eq(taskTeam.taskid, taskid), inArray(taskTeam.teamid, removed)));
        const added = ids.filter((id) => !current.includes(id));
        if (added.length) await tx.insert(taskTeam).values(added.map((teamid) => ({ taskid, teamid })));
        teamsChanged = removed.length + added.length;
      }
      await tx
        .update(task)
        .set({ taskname: taskname ?? t.taskname, plancode: newPlan?.plancode ?? t.plancode, startat: start, endat: end })
        .where(eq(task.taskid, taskid));
      return { plan: !!newPlan, teams: teamsChanged };
    });
    await ctx.audit({ result: 'ok', detail: { taskid, planchanged: change.plan, teamschanged: change.teams } });
    return null;
  },

  'as.m.assess.deleteAssessTask': async ({ taskid }, ctx) => {
    const withdrawn = await ctx.db.transaction(async (tx) => {
      await lockTask(ctx, tx, taskid);
      const codes = (await taskPeople(tx, taskid)).map((p) => p.assesscode);
      if (await answeredCount(tx, codes)) conflict({ zh: '该任务已有人作答，不能删除', en: 'Someone has answered this task; it cannot be deleted' });
      await withdrawUnopenedCodes(tx, codes);
      await tx.delete(task).where(eq(task.taskid, taskid));
      return codes.length;
    });
    await ctx.audit({ result: 'ok', detail: { taskid, withdrawn } });
    return null;
  },

  'as.m.assess.insertAssessTeamRosterTask': async ({ taskid }, ctx) => {
    const result = await ctx.db.transaction(async (tx) => {
      const t = await lockTask(ctx, tx, taskid);
      if (taskStatusAt(t, ctx.now()) === 'ended') conflict({ zh: '任务已结束，不能再发放测评码', en: 'The task has ended; no more codes can be given' });
      const teams = (await taskTeams(tx, taskid)).map((x) => x.teamid);
      const given = new Set((await taskPeople(tx, taskid)).map((p) => p.cusercode));
      const members = await tx
        .select({ teamid: teamMember.teamid, cusercode: teamMember.cusercode, studentno: teamMember.studentno })
        .from(teamMember)
        .where(and(inArray(teamMember.teamid, teams), livingPerson(teamMember.cusercode)))
        .orderBy(asc(teamMember.teamid), asc(teamMember.studentno));
      const fresh = members.filter((m) => !given.has(m.cusercode) && given.add(m.cusercode));
      if (fresh.length) {
        const p = await findPlan(ctx, tx, t.plancode, false);
        const codes = await issueCodes(ctx, tx, t.musercode, p.appid, t.plancode, fresh.map((m) => m.cusercode));
        const rows = fresh.map((m, i) => ({ taskid, cusercode: m.cusercode, teamid: m.teamid, studentno: m.studentno, assesscode: codes[i]!, createdat: ctx.now() }));
        for (let i = 0; i < rows.length; i += 1000) await tx.insert(taskPerson).values(rows.slice(i, i + 1000));
      }
      return { issued: fresh.length, total: given.size };
    });
    await ctx.audit({ result: 'ok', detail: { taskid, ...result } });
    return result;
  },

  'as.m.assess.getAssessTaskRoster': async ({ taskid, teamid, realname, page, pageSize }, ctx) => {
    await taskInScope(ctx, ctx.db, taskid);
    if (teamid) await teamOfTask(ctx.db, taskid, teamid);
    const where = and(eq(taskPerson.taskid, taskid), teamid ? eq(taskPerson.teamid, teamid) : undefined, realname ? personNameLike(taskPerson.cusercode, realname) : undefined);
    const order = [asc(taskPerson.teamid), asc(taskPerson.studentno), asc(taskPerson.cusercode)];
    const { total, rows } = await paged(ctx.db, ctx.db.select().from(taskPerson).where(where).$dynamic(), order, { page, pageSize });
    const [people, teams, states] = await Promise.all([
      personBriefs(ctx.db, rows.map((r) => r.cusercode), ctx.lang),
      teamNames(ctx.db, rows.map((r) => r.teamid)),
      codeStates(ctx.db, rows.map((r) => r.assesscode)),
    ]);
    return {
      total,
      rows: rows.map((r) => ({
        cusercode: r.cusercode,
        teamid: r.teamid,
        teamname: teams.get(r.teamid) ?? '',
        studentno: r.studentno,
        realname: people.get(r.cusercode)?.realname ?? '',
        gender: people.get(r.cusercode)?.gender ?? '',
        assesscode: r.assesscode,
        url: codeUrl(r.assesscode),
        status: progressOf(states.get(r.assesscode)?.status ?? 'issued'),
      })),
    };
  },

  'as.m.assess.deleteAssessTaskCUser': async ({ taskid, cusercode }, ctx) => {
    await ctx.db.transaction(async (tx) => {
      await lockTask(ctx, tx, taskid);
      const [row] = await tx.select().from(taskPerson).where(and(eq(taskPerson.taskid, taskid), eq(taskPerson.cusercode, cusercode)));
      if (!row) return notFound({ zh: '该测评对象不在此任务中', en: 'This person is not in the task' });
      if (await answeredCount(tx, [row.assesscode])) conflict({ zh: '该测评对象已开始作答，不能移出任务', en: 'This person has started answering and cannot be taken off the task' });
      // Withdrawing the code takes the person off the task (task_person goes with it).
      await withdrawUnopenedCodes(tx, [row.assesscode]);
    });
    await ctx.audit({ result: 'ok', detail: { taskid, cusercode } });
    return null;
  },
} satisfies HandlerMap;
