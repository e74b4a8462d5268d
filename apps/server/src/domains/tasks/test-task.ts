import { expect } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { insertCode } from '../assessments/index.js';
import { createPerson } from '../persons/index.js';
import { task, taskPerson, taskTeam, team, teamMember } from './tables.js';

/** A student of a test class: number, name, gender. */
export type Student = [studentno: string, realname: string, gender: '01' | '02'];

export const ok = async <T = any>(p: Promise<{ errorCode: number; errorMsg: string; data: T }>): Promise<T> => {
  const res = await p;
  expect(res.errorCode, res.errorMsg).toBe(0);
  return res.data;
};

let made = 0;

/**
 * A task of a one-form plan (GAD-7) of the school I0001 for some classes, running from an hour
 * before the test clock to a day after: the plan through its action, the classes, rosters, task and
 * personal codes written as the task actions store them (so these tests stand on their own).
 * Answers the ids, the task code and each student's personal code by class and number.
 */
export async function classTask(s: TestServer, token: string, classes: Record<string, Student[]>, opts: { startat?: Date; endat?: Date } = {}) {
  const db = s.database.db;
  const n = ++made;
  const now = s.clock.now();
  const { plancode } = await ok(s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: `任务计划${n}`, formcodes: ['GAD7'] }, token));
  const taskid = `TKtest${n}`;
  const taskcode = `TEST${n}TSK`.padEnd(8, 'X').toUpperCase();
  await db.insert(task).values({
    taskid,
    musercode: 'I0001',
    taskname: `测评任务${n}`,
    plancode,
    taskcode,
    startat: opts.startat ?? new Date(now.getTime() - 3_600_000),
    endat: opts.endat ?? new Date(now.getTime() + 86_400_000),
    createdat: now,
  });
  const teamids: Record<string, string> = {};
  const codes: Record<string, Record<string, string>> = {};
  for (const [classname, students] of Object.entries(classes)) {
    const teamid = `TMtest${n}${Object.keys(teamids).length}`;
    teamids[classname] = teamid;
    codes[classname] = {};
    await db.insert(team).values({ teamid, musercode: 'I0001', kind: 'class', appid: '000000002', school: '滨江第一中学', year: '2026', term: '第一学期', grade: '初一', classname, createdat: now });
    await db.insert(taskTeam).values({ taskid, teamid });
    for (const [studentno, realname, gender] of students) {
      const { cusercode } = await createPerson(db, { musercode: 'I0001', appid: '000000002', realname, gender, source: 'console', now });
      await db.insert(teamMember).values({ teamid, cusercode, studentno, joinedat: now });
      const assesscode = await insertCode(db, { musercode: 'I0001', cusercode, plancode, stagecode: '', authid: null, formcodes: ['GAD7'], createdby: 'test', now });
      await db.insert(taskPerson).values({ taskid, cusercode, teamid, studentno, assesscode, createdat: now });
      codes[classname]![studentno] = assesscode;
    }
  }
  return { taskid, taskcode, teamids, codes, plancode: plancode as string };
}

/** A GAD-7 sheet: every item the given option (4: nearly every day). */
export const gad7 = (option = 1) => Array.from({ length: 7 }, (_, i) => ({ no: i + 1, option }));
