import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { job } from '../../kit/jobs/tables.js';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { ok } from './test-task.js';

/** pg's warning when a query is sent on a connection that is still busy (pg@9 will refuse it). */
const busyWarnings: string[] = [];
process.on('warning', (w) => {
  if (/already executing a query/.test(w.message)) busyWarnings.push(w.message);
});

/** The demo group assessment (seeded with the demo reports): six classes, an ended and a running task. */
describe.each(engines())('demo group assessment on %s', (engine) => {
  let s: TestServer;
  let school: string;
  beforeAll(async () => {
    s = await startTestServer(engine, { demoTasks: true });
    school = (await s.login('school')).token;
  });
  afterAll(() => s?.close());

  it('is seeded through the actions without sending a query on a busy connection', () => {
    expect(busyWarnings).toEqual([]);
  });

  it('has six classes, an ended task most of 初二 finished and a running task in every state', async () => {
    const teams = await ok(s.call('as.m.assess.getAssessTeamPageList', { school: '滨江第一中学', page: 1, pageSize: 50 }, school));
    expect(teams.rows.map((t: { grade: string; classname: string; membercount: number }) => `${t.grade}${t.classname}:${t.membercount}`).sort()).toEqual(
      ['初一1班:20', '初一2班:20', '初一3班:20', '初二1班:20', '初二2班:20', '初二3班:20'],
    );
    const tasks = await ok(s.call('as.m.assess.getTaskList', { page: 1, pageSize: 10 }, school));
    const byName = new Map(tasks.rows.map((t: { taskname: string; taskid: string }) => [t.taskname, t.taskid]));
    const ended = await ok(s.call('as.m.assess.getAssessTaskProgress', { taskid: byName.get('初二年级秋季心理普查') }, school));
    expect(ended).toMatchObject({ status: 'ended', total: 60, inprogress: 0 });
    expect(ended.finished).toBeGreaterThanOrEqual(54);
    expect(ended.teams).toHaveLength(3);
    const running = await ok(s.call('as.m.assess.getAssessTaskProgress', { taskid: byName.get('全校期中情绪自评') }, school));
    expect(running).toMatchObject({ status: 'running', total: 120 });
    for (const n of [running.notstarted, running.inprogress, running.finished]) expect(n).toBeGreaterThan(5);
    // Some answered at risk: the school has open warning cases from the tasks' students.
    const finished = await ok(s.call('as.m.assess.getAssessTaskRosterProgress', { taskid: byName.get('初二年级秋季心理普查'), status: 'finished', page: 1, pageSize: 200 }, school));
    const reports = await ok(s.call('as.m.exam.getCUserReportPageList', { page: 1, pageSize: 200, warning: 1 }, school));
    const atRisk = new Set(reports.rows.map((r: { cusercode: string }) => r.cusercode));
    expect(finished.rows.filter((r: { cusercode: string }) => atRisk.has(r.cusercode)).length).toBeGreaterThan(0);
  });

  it('leaves no escalation clock running: every critical case escalates at once, none while someone is using the console', async () => {
    const escalations = await s.database.db.select({ runat: job.runat }).from(job).where(eq(job.kind, 'warnings.escalate'));
    expect(escalations.length).toBeGreaterThan(0);
    expect(escalations.filter((e) => e.runat > s.clock.now())).toEqual([]);
  });
});
