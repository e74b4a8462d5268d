import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { gradeRank } from '@xinli/contract';
import { assessment } from '../domains/assessments/tables.js';
import { cuser } from '../domains/persons/tables.js';
import { team, teamMember } from '../domains/tasks/tables.js';
import { followUp, warnCase } from '../domains/warnings/tables.js';
import { engines, startTestServer, type TestServer } from '../test/harness.js';

/**
 * Issue 28 item 22: the demo looks like a real institution's year. Seeded whole (reports, group
 * tasks, follow-ups) on the test clock, then measured: a minority of abnormal reports in every
 * institution, ages that fit grades and populations, and crisis cases that staff have worked.
 */
const INSTITUTIONS = ['I0001', 'I0002', 'I0003', 'I0004'];

/** Whole years between a birth date and a day (both YYYY-MM-DD). */
function ageOn(birthdate: string, day: string): number {
  const [by, bm, bd] = birthdate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

describe.each(engines())('the demo as a real year on %s', (engine) => {
  let s: TestServer;
  let today: string;
  beforeAll(async () => {
    s = await startTestServer(engine, { demoTasks: true });
    today = s.clock.now().toISOString().slice(0, 10);
  });
  afterAll(() => s?.close());

  it('finds a minority abnormal (mild or worse) in every institution: between 5% and 30% of reports', async () => {
    const rows = await s.database.db.select({ musercode: assessment.musercode, mentalstate: assessment.mentalstate }).from(assessment);
    for (const m of INSTITUTIONS) {
      const mine = rows.filter((r) => r.musercode === m);
      const abnormal = mine.filter((r) => (r.mentalstate ?? 0) >= 2).length;
      expect(mine.length, m).toBeGreaterThan(50);
      const share = abnormal / mine.length;
      console.log(`demo ${m}: ${abnormal} abnormal of ${mine.length} reports (${Math.round(share * 100)}%)`);
      expect(share, `${m}: ${abnormal} of ${mine.length}`).toBeGreaterThanOrEqual(0.05);
      expect(share, `${m}: ${abnormal} of ${mine.length}`).toBeLessThanOrEqual(0.3);
    }
  });

  it('gives every student an age that fits their grade and school level, and the class they sit in', async () => {
    const people = await s.database.db
      .select({ cusercode: cuser.cusercode, appid: cuser.appid, birthdate: cuser.birthdate, archive: cuser.archive })
      .from(cuser);
    const students = people.filter((p) => p.appid === '000000002');
    expect(students.length).toBeGreaterThan(100);
    const gradeOf = new Map<string, number>();
    for (const p of students) {
      const grade = Number(p.archive.find((a) => a.no === 2)?.value);
      const level = Number(p.archive.find((a) => a.no === 1)?.value);
      const age = ageOn(p.birthdate!, today);
      gradeOf.set(p.cusercode, grade);
      // Grade g is sat at g + 5 to g + 7 (school starts at 6 or 7; a year either way).
      expect(age, `${p.cusercode}: grade ${grade}, age ${age}`).toBeGreaterThanOrEqual(grade + 5);
      expect(age, `${p.cusercode}: grade ${grade}, age ${age}`).toBeLessThanOrEqual(grade + 7);
      expect(level, `${p.cusercode}: grade ${grade}, level ${level}`).toBe(grade <= 6 ? 1 : grade <= 9 ? 2 : 3);
    }
    const members = await s.database.db
      .select({ cusercode: teamMember.cusercode, grade: team.grade })
      .from(teamMember)
      .innerJoin(team, eq(team.teamid, teamMember.teamid));
    expect(members.length).toBeGreaterThan(100);
    for (const m of members) expect(gradeRank(m.grade), m.cusercode).toBe(gradeOf.get(m.cusercode));
  });

  it('gives every population an age that fits it', async () => {
    const people = await s.database.db.select({ appid: cuser.appid, birthdate: cuser.birthdate }).from(cuser);
    const range: Record<string, [number, number]> = { '000000001': [18, 45], '000000003': [18, 65], '000000004': [50, 100] };
    for (const p of people) {
      const r = range[p.appid];
      if (!r || !p.birthdate) continue;
      const age = ageOn(p.birthdate, today);
      expect(age, `${p.appid} ${p.birthdate}`).toBeGreaterThanOrEqual(r[0]);
      expect(age, `${p.appid} ${p.birthdate}`).toBeLessThanOrEqual(r[1]);
    }
  });

  it('has crisis cases in every state, most of the older ones followed up, some closed with an outcome', async () => {
    const cases = await s.database.db.select().from(warnCase);
    const persons = await s.database.db.select({ cusercode: cuser.cusercode }).from(cuser);
    expect(cases.length).toBeGreaterThan(10);
    // A minority of people has a case at all.
    expect(cases.length / persons.length).toBeLessThan(0.25);
    const follows = await s.database.db.select({ caseid: followUp.caseid }).from(followUp);
    const followed = new Set(follows.map((f) => f.caseid));
    const dayAgo = s.clock.now().getTime() - 25 * 3_600_000;
    const older = cases.filter((c) => c.openedat.getTime() < dayAgo);
    expect(older.filter((c) => followed.has(c.caseid)).length / older.length).toBeGreaterThanOrEqual(0.5);
    const byState = (state: string) => cases.filter((c) => c.state === state).length;
    for (const state of ['open', 'acknowledged', 'followup', 'closed']) expect(byState(state), state).toBeGreaterThan(0);
    expect(byState('closed') / cases.length).toBeGreaterThanOrEqual(0.1);
    for (const c of cases.filter((c) => c.state === 'closed')) expect(c.outcome, c.caseid).toBeTruthy();
    // Every institution with cases has worked some of them.
    for (const m of new Set(cases.map((c) => c.musercode)))
      expect(cases.filter((c) => c.musercode === m && followed.has(c.caseid)).length, m).toBeGreaterThan(0);
  });

  it('shows the follow-ups on the follow-up management page of the school, its counsellor and the hospital', async () => {
    for (const username of ['school', 'teacher', 'hospital']) {
      const { token } = await s.login(username);
      const res = await s.call('as.m.warning.getFollowUpPageList', { page: 1, pageSize: 20 }, token);
      expect(res.errorCode, username).toBe(0);
      expect((res.data as { total: number }).total, username).toBeGreaterThan(0);
    }
  });
});
