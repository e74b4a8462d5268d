import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { consented } from '../../test/consent.js';
import { classTask, gad7, ok, type Student } from '../tasks/test-task.js';

/**
 * The striped sums under parallel submissions (issue 33 §3): a class signing in and submitting at
 * once, on PostgreSQL in parallel transactions, must leave every figure exactly the raw count, and
 * the rebuild must write the same sums the triggers kept.
 */
describe.each(engines())('statistics under parallel submissions on %s', (engine) => {
  let s: TestServer;
  const students: Student[] = Array.from({ length: 30 }, (_, i) => [`P${String(i).padStart(3, '0')}`, `并发学生${i}`, i % 2 ? '01' : '02']);

  const rows = async <T>(q: ReturnType<typeof sql>) => (await s.database.db.execute(q)) as unknown as { rows: T[] };
  const one = async (q: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(q)).rows[0]!.n);
  /** Every sum of the read model per key, its stripes added up. */
  const sums = async () => ({
    count: (await rows(sql`select grain, period, musercode, appid, stagecode, gender, sum(n)::int n, sum(abnormal)::int abnormal, sum(anx1 + anx2 + anx3 + anx4)::int anx,
      sum(persons)::int persons, sum(issued)::int issued, sum(started)::int started, sum(finished)::int finished
      from stats_count group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0 or sum(persons) <> 0 or sum(issued) <> 0 or sum(started) <> 0 or sum(finished) <> 0 order by 1, 2, 3, 4, 5, 6`)).rows,
    team: (await rows(sql`select grain, period, teamid, appid, stagecode, sum(n)::int n from stats_team group by 1, 2, 3, 4, 5 having sum(n) <> 0 order by 1, 2, 3, 4, 5`)).rows,
    people: (await rows(sql`select musercode, appid, stagecode, sum(persons)::int persons from stats_people group by 1, 2, 3 having sum(persons) <> 0 order by 1, 2, 3`)).rows,
  });

  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  it('counts every one of a class submitting at once, and the rebuild agrees', async () => {
    const school = (await s.login('school')).token;
    const task = await classTask(s, school, { 并发班: students });
    const teamid = task.teamids['并发班']!;
    // Each student from their own address (the code-entry limit is not what is tested here).
    const tokens = await Promise.all(
      students.map(async ([studentno, realname], i) => {
        const headers = { 'x-test-ip': `10.9.0.${i + 1}` };
        const session = await ok(s.call('as.c.task.login', { taskcode: task.taskcode, studentno, realname }, undefined, headers));
        return consented(s, session.token, headers);
      }),
    );
    await Promise.all(tokens.map((token) => ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7(3) }, token))));

    expect(await one(sql`select coalesce(sum(n), 0)::int n from stats_team where grain = 'd' and teamid = ${teamid}`)).toBe(students.length);
    expect(await one(sql`select coalesce(sum(n), 0)::int n from stats_count where grain = 'd'`)).toBe(
      await one(sql`select count(*)::int n from assessment a join cuser c on c.cusercode = a.cusercode where a.hidden = 0 and a.voided = 0 and c.deletedat is null`),
    );
    expect(await one(sql`select coalesce(sum(finished), 0)::int n from stats_count where grain = 'm' and musercode = 'I0001'`)).toBe(
      await one(sql`select count(*)::int n from assess_code k join cuser c on c.cusercode = k.cusercode where k.musercode = 'I0001' and k.status = 'finished' and c.deletedat is null`),
    );
    expect(await one(sql`select coalesce(sum(persons), 0)::int n from stats_people where musercode = 'I0001' and appid = '*' and stagecode = '*'`)).toBe(
      await one(sql`select count(distinct a.cusercode)::int n from assessment a join cuser c on c.cusercode = a.cusercode
        where a.musercode = 'I0001' and a.hidden = 0 and a.voided = 0 and c.deletedat is null`),
    );
    // The class's sums are spread over stripes (so parallel persons lock different rows).
    expect(await one(sql`select count(distinct stripe)::int n from stats_team where teamid = ${teamid}`)).toBeGreaterThan(1);

    const kept = await sums();
    await s.database.db.execute(sql`select stats_rebuild()`);
    expect(await sums()).toEqual(kept);
  });
});
