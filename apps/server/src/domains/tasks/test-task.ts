import { expect } from 'vitest';
import type { TestServer } from '../../test/harness.js';

/** A student of a test class: number, name, gender. */
export type Student = [studentno: string, realname: string, gender: '01' | '02'];

const ok = async <T = any>(p: Promise<{ errorCode: number; errorMsg: string; data: T }>): Promise<T> => {
  const res = await p;
  expect(res.errorCode, res.errorMsg).toBe(0);
  return res.data;
};

/**
 * A task of a one-form plan (GAD-7) for some classes of the caller's school, through the actions a
 * teacher uses: classes, their rosters, the task (running from an hour before the test clock to a
 * day after), its personal codes.
 */
export async function classTask(s: TestServer, token: string, classes: Record<string, Student[]>, opts: { taskname?: string; startat?: Date; endat?: Date } = {}) {
  const tag = Object.keys(classes).join('');
  const { plancode } = await ok(s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: `任务计划${tag}`, formcodes: ['GAD7'] }, token));
  const teamids: Record<string, string> = {};
  for (const [classname, students] of Object.entries(classes)) {
    const { teamid } = await ok(
      s.call('as.m.assess.insertAssessTeam', { kind: 'class', school: '滨江第一中学', year: '2026', term: '第一学期', grade: '初一', classname, deptname: '' }, token),
    );
    teamids[classname] = teamid;
    for (const [studentno, realname, gender] of students) await ok(s.call('as.m.assess.insertAssessTeamCUser', { teamid, studentno, realname, gender }, token));
  }
  const now = s.clock.now().getTime();
  const { taskid, taskcode } = await ok(
    s.call(
      'as.m.assess.insertAssessTask',
      {
        taskname: opts.taskname ?? `测评任务${tag}`,
        plancode,
        teamids: Object.values(teamids),
        startat: (opts.startat ?? new Date(now - 3_600_000)).toISOString(),
        endat: (opts.endat ?? new Date(now + 86_400_000)).toISOString(),
      },
      token,
    ),
  );
  await ok(s.call('as.m.assess.insertAssessTeamRosterTask', { taskid }, token));
  return { taskid: taskid as string, taskcode: taskcode as string, teamids, plancode: plancode as string };
}

/** A GAD-7 sheet: every item the given option (4: nearly every day). */
export const gad7 = (option = 1) => Array.from({ length: 7 }, (_, i) => ({ no: i + 1, option }));

export { ok };
