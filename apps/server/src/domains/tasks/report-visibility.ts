import { and, eq, inArray } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import { setReportsHidden } from '../reports/index.js';
import { groupTarget } from './group-report/data.js';
import { taskPerson, taskTeam } from './tables.js';

/**
 * Showing or hiding a team's reports to its respondents (as.m.cuser.showOrHiddenReport for a
 * whole team, or every team of the task): the task_team flag and the reports of the task's
 * personal codes of those teams, in one transaction.
 */
export const reportVisibilityHandlers = {
  'as.m.assess.showOrHiddenTeamReport': async ({ taskid, teamid, hidden }, ctx) => {
    const target = await groupTarget(ctx, ctx.db, taskid, teamid);
    const teamids = teamid ? [teamid] : target.teams.map((t) => t.teamid);
    const count = await ctx.db.transaction(async (tx) => {
      await tx
        .update(taskTeam)
        .set({ reporthidden: hidden })
        .where(and(eq(taskTeam.taskid, taskid), inArray(taskTeam.teamid, teamids)));
      const codes = await tx
        .select({ assesscode: taskPerson.assesscode })
        .from(taskPerson)
        .where(and(eq(taskPerson.taskid, taskid), inArray(taskPerson.teamid, teamids)));
      return setReportsHidden(
        tx,
        codes.map((c) => c.assesscode),
        hidden,
      );
    });
    await ctx.audit({
      result: 'ok',
      detail: { taskid, teamid, hidden, count, target: target.task.musercode },
    });
    return null;
  },
} satisfies HandlerMap;
