import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, TEST_EPOCH, type TestServer } from '../../test/harness.js';
import { fingerprint } from '../../test/sweep/fingerprint.js';
import { auditLog } from '../audit/tables.js';
import { rosterFile, templateHeader } from '../persons/test-roster.js';
import { team } from './tables.js';

const b64 = (b: Buffer) => b.toString('base64');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(engines())('teams and rosters on %s', (engine) => {
  let s: TestServer;
  let school: string; // I0001 (students), holds 00042 and 00041
  let provider: string; // P0001 over I0001..
  let header: string[];
  let signins = 0;
  const signIn = async (u: string) => (await s.login(u, undefined, `10.14.${Math.floor(++signins / 200)}.${signins % 200}`)).token;
  const audits = (action: string) => s.database.db.select().from(auditLog).where(eq(auditLog.action, action));
  const newClass = async (classname: string, extra: Record<string, unknown> = {}) => {
    const res = await s.call('as.m.assess.insertAssessTeam', { kind: 'class', school: '滨江一中', year: '2026', term: '第一学期', grade: '初一', classname, deptname: '', ...extra }, school);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data.teamid as string;
  };
  const roster = async (teamid: string) =>
    (await s.call('as.m.assess.getAssessTeamRoster', { teamid, pageSize: 200 }, school)).data.rows.map((r: { studentno: string; realname: string; gender: string }) => `${r.studentno}:${r.realname}:${r.gender}`);
  const importRoster = (teamid: string, rows: (string | number | null)[][], mode: 'preview' | 'commit', h = header, lang?: string) =>
    rosterFile(h, rows).then((f) =>
      s.call('as.m.assess.importAssessTeamRoster', { teamid, mode, filename: 'class.xlsx', content: b64(f) }, school, lang ? { 'accept-language': lang } : {}),
    );

  beforeAll(async () => {
    s = await startTestServer(engine);
    [school, provider] = await Promise.all(['school', 'provider'].map(signIn));
    const template = await s.raw('as.m.assess.getAssessTeamRosterTemplate', '{}', { token: school });
    expect(template.statusCode).toBe(200);
    header = await templateHeader(template.rawPayload);
  });
  afterAll(() => s?.close());

  it('creates, lists, looks up and deletes teams; the same team twice is a conflict; another institution’s team is not found', async () => {
    const c1 = await newClass('1班');
    await newClass('2班');
    await newClass('1班', { grade: '初二' });
    await newClass('1班', { year: '2025' });
    const dup = await s.call('as.m.assess.insertAssessTeam', { kind: 'class', school: '滨江一中', year: '2026', term: '第一学期', grade: '初一', classname: '1班', deptname: '' }, school);
    expect(dup.errorCode).toBe(ErrorCode.conflict);
    // A class needs school, grade and class; a department needs the working-adults app (the school has students only).
    expect((await s.call('as.m.assess.insertAssessTeam', { kind: 'class', school: '滨江一中', year: '', term: '', grade: '', classname: '3班', deptname: '' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.assess.insertAssessTeam', { kind: 'dept', school: '', year: '', term: '', grade: '', classname: '', deptname: '教务处' }, school)).errorCode).toBe(ErrorCode.validation);

    const page = await s.call('as.m.assess.getAssessTeamPageList', { school: '滨江一中', year: '2026', pageSize: 20 }, school);
    expect(page.data.rows.map((r: { teamname: string }) => r.teamname)).toEqual(['滨江一中 初一 1班', '滨江一中 初一 2班', '滨江一中 初二 1班']);
    expect(page.data.rows[0]).toMatchObject({ teamid: c1, musercode: 'I0001', insname: '滨江第一中学', kind: 'class', appid: '000000002', membercount: 0, opentaskcount: 0 });
    expect((await s.call('as.m.assess.getAssessTeamPageList', { teamname: '初二' }, school)).data.total).toBe(1);

    expect((await s.call('as.m.assess.getSchoolList', {}, school)).data).toEqual(['滨江一中']);
    expect((await s.call('as.m.assess.getYearList', { school: '滨江一中' }, school)).data).toEqual(['2026', '2025']);
    expect((await s.call('as.m.assess.getTermList', { school: '滨江一中', year: '2026' }, school)).data).toEqual(['第一学期']);
    expect((await s.call('as.m.assess.getGradeList', { school: '滨江一中', year: '2026', term: '第一学期' }, school)).data).toEqual(['初一', '初二']);

    // Another institution's team (gzschool, I0006, under another provider).
    await s.database.db.insert(team).values({ teamid: 'TMOTHER', musercode: 'I0006', kind: 'class', appid: '000000002', school: '广州中学', grade: '初一', classname: '1班' });
    expect((await s.call('as.m.assess.getSchoolList', {}, school)).data).toEqual(['滨江一中']);
    for (const [name, body] of [
      ['as.m.assess.deleteAssessTeam', { teamid: 'TMOTHER' }],
      ['as.m.assess.getAssessTeamRoster', { teamid: 'TMOTHER' }],
      ['as.m.assess.insertAssessTeamCUser', { teamid: 'TMOTHER', studentno: '1', realname: '甲', gender: '01' }],
      ['as.m.assess.batchDeleteAssessTeamCUser', { teamid: 'TMOTHER', cusercodes: ['C1'] }],
      ['as.m.assess.getAssessTeamPageList', { musercode: 'I0006' }],
    ] as const)
      expect((await s.call(name, body, school)).errorCode, name).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.assess.getAssessTeamPageList', { musercode: 'I0006' }, provider)).errorCode).toBe(ErrorCode.notFound);

    const del = await s.call('as.m.assess.deleteAssessTeam', { teamid: c1 }, school);
    expect(del.errorCode).toBe(0);
    expect((await s.call('as.m.assess.getAssessTeamRoster', { teamid: c1 }, school)).errorCode).toBe(ErrorCode.notFound);
    // Deleted: the same class may be created again.
    await newClass('1班');
    expect((await audits('as.m.assess.deleteAssessTeam')).map((a) => a.detail)).toEqual([{ teamid: c1 }]);
  });

  it('adds, lists and removes roster members; a number is unique in its team', async () => {
    const t = await newClass('5班');
    const a = await s.call('as.m.assess.insertAssessTeamCUser', { teamid: t, studentno: '0502', realname: '乙同学', gender: '02' }, school);
    expect(a.errorCode, a.errorMsg).toBe(0);
    const b = await s.call('as.m.assess.insertAssessTeamCUser', { teamid: t, studentno: '0501', realname: '甲同学', gender: '01' }, school);
    expect((await s.call('as.m.assess.insertAssessTeamCUser', { teamid: t, studentno: '0501', realname: '丙同学', gender: '01' }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.assess.insertAssessTeamCUser', { teamid: t, studentno: '0503' }, school)).errorCode).toBe(ErrorCode.validation);
    // An existing person of the institution joins a second team.
    const t2 = await newClass('6班');
    expect((await s.call('as.m.assess.insertAssessTeamCUser', { teamid: t2, studentno: '0601', cusercode: b.data.cusercode }, school)).errorCode).toBe(0);
    expect(await roster(t)).toEqual(['0501:甲同学:01', '0502:乙同学:02']);
    expect((await s.call('as.m.assess.getAssessTeamRoster', { teamid: t, realname: '乙' }, school)).data.total).toBe(1);
    expect((await s.call('as.m.assess.getCUser', { cusercode: a.data.cusercode }, school)).data).toMatchObject({ realname: '乙同学', appid: '000000002' });

    const removed = await s.call('as.m.assess.batchDeleteAssessTeamCUser', { teamid: t, cusercodes: [a.data.cusercode, b.data.cusercode, b.data.cusercode] }, school);
    expect(removed.data).toEqual({ removed: 2 });
    expect(await roster(t)).toEqual([]);
    expect(await roster(t2)).toEqual(['0601:甲同学:01']);
  });

  it('imports a roster: preview of the difference, a refused commit changes nothing, the commit applies exactly the difference', async () => {
    expect(header).toEqual(['*学号/工号 Number [studentno]', '*姓名 Name [realname]', '*性别（男/女） Gender (M/F) [gender]']);
    const t = await newClass('7班');
    const first = await importRoster(t, [['701', '张一', '男'], ['702', '张二', '女'], ['703', '张三', '男'], ['704', '张四', '女']], 'commit');
    expect(first.data).toMatchObject({ mode: 'commit', total: 4, added: 4, changed: 0, leaving: 0, unchanged: 0, problemcount: 0 });
    expect(await roster(t)).toEqual(['701:张一:01', '702:张二:02', '703:张三:01', '704:张四:02']);

    // 701 unchanged, 702 renamed, 703 gender corrected, 704 leaves, 705 and 706 join.
    const next = [['701', '张一', '男'], ['702', '张贰', '女'], ['703', '张三', '女'], ['705', '张五', '男'], ['706', '张六', '女']];
    const before = await fingerprint(s.database.db);
    const preview = await importRoster(t, next, 'preview');
    expect(preview.errorCode, preview.errorMsg).toBe(0);
    expect(preview.data).toMatchObject({ mode: 'preview', total: 5, added: 2, changed: 2, leaving: 1, unchanged: 1, problemcount: 0, errorfile: '' });
    expect(preview.data.changes).toEqual([
      { change: 'changed', row: 3, studentno: '702', realname: '张贰', gender: '02', before: { realname: '张二', gender: '02' } },
      { change: 'changed', row: 4, studentno: '703', realname: '张三', gender: '02', before: { realname: '张三', gender: '01' } },
      { change: 'new', row: 5, studentno: '705', realname: '张五', gender: '01', before: null },
      { change: 'new', row: 6, studentno: '706', realname: '张六', gender: '02', before: null },
      { change: 'leaving', row: 0, studentno: '704', realname: '张四', gender: '02', before: null },
    ]);
    expect(await fingerprint(s.database.db)).toEqual(before);

    // Bad rows: every one named, in an error file; the commit refuses and changes nothing.
    const bad = [...next, ['', '无号', '男'], ['705', '重号', '女'], ['708', '', '未知'], ['7 09', '空格', '男']];
    const badPreview = await importRoster(t, bad, 'preview');
    const where = badPreview.data.problems.map((p: { row: number; column: string }) => `${p.row}:${/\[(\w+)\]/.exec(p.column)?.[1]}`);
    expect(where).toEqual(['7:studentno', '8:studentno', '9:realname', '9:gender', '10:studentno']);
    expect(badPreview.data.problems[1].reason).toBe('与第5行学号重复');
    const errors = new ExcelJS.Workbook();
    await errors.xlsx.load(Buffer.from(badPreview.data.errorfile, 'base64') as unknown as ArrayBuffer);
    expect(errors.worksheets[0]!.rowCount).toBe(6);
    const refused = await importRoster(t, bad, 'commit');
    expect(refused.errorCode).toBe(ErrorCode.badImportFile);
    expect(refused.errorMsg).toMatch(/^导入失败，名单未作任何改动：共 5 处错误；第7行/);
    expect((await importRoster(t, bad, 'commit', header, 'en-US')).errorMsg).toMatch(/^The roster is unchanged: 5 problems; row 7/);
    // A file that is not this roster: the header is named.
    expect((await importRoster(t, [['x', 'y']], 'preview', ['姓名', '学号'])).data.problems.map((p: { column: string }) => p.column)).toHaveLength(3);
    expect(await fingerprint(s.database.db)).toEqual(before);

    const commit = await importRoster(t, next, 'commit');
    expect(commit.data).toMatchObject({ mode: 'commit', added: 2, changed: 2, leaving: 1, unchanged: 1 });
    expect(await roster(t)).toEqual(['701:张一:01', '702:张贰:02', '703:张三:02', '705:张五:01', '706:张六:02']);
    // Applied exactly: the same file again is no difference at all.
    expect((await importRoster(t, next, 'preview')).data).toMatchObject({ added: 0, changed: 0, leaving: 0, unchanged: 5, changes: [] });
    expect((await audits('as.m.assess.importAssessTeamRoster')).map((a) => a.detail)).toContainEqual(expect.objectContaining({ mode: 'commit', teamid: t, added: 2, changed: 2, leaving: 1 }));
  });

  it('imports a roster of 5,000 in seconds', async () => {
    const t = await newClass('大班');
    const rows = Array.from({ length: 5000 }, (_, i) => [`S${String(i).padStart(5, '0')}`, `学生${i}`, i % 2 ? '女' : '男']);
    const file = b64(await rosterFile(header, rows));
    const started = performance.now();
    const res = await s.call('as.m.assess.importAssessTeamRoster', { teamid: t, mode: 'commit', filename: 'big.xlsx', content: file }, school);
    const seconds = (performance.now() - started) / 1000;
    expect(res.errorCode, res.errorMsg).toBe(0);
    expect(res.data).toMatchObject({ added: 5000, total: 5000 });
    expect((await s.call('as.m.assess.getAssessTeamRoster', { teamid: t }, school)).data.total).toBe(5000);
    expect(seconds).toBeLessThan(30);
    console.log(`team roster import of 5,000 on ${engine}: ${seconds.toFixed(1)} s`);
  }, 120_000);

  it('refuses to delete a team while a task that has not ended includes it', async () => {
    const t = await newClass('8班');
    const now = TEST_EPOCH;
    const task = await s.call('as.m.assess.insertAssessTask', { taskname: '期中筛查', plancode: 'PL-S1', teamids: [t], startat: iso(now - HOUR), endat: iso(now + HOUR) }, school);
    expect(task.errorCode, task.errorMsg).toBe(0);
    const refused = await s.call('as.m.assess.deleteAssessTeam', { teamid: t }, school);
    expect(refused.errorCode).toBe(ErrorCode.conflict);
    expect(refused.errorMsg).toContain('有 1 个未结束的测评任务');
    expect((await s.call('as.m.assess.deleteAssessTeam', { teamid: t }, school, { 'accept-language': 'en-US' })).errorMsg).toContain('1 task(s) not yet ended');
    expect((await s.call('as.m.assess.getAssessTeamPageList', { teamname: '8班' }, school)).data.rows[0].opentaskcount).toBe(1);
    // Once the task has ended, the team can go (the ended task keeps naming it).
    s.clock.advance(2 * HOUR);
    school = await signIn('school');
    expect((await s.call('as.m.assess.deleteAssessTeam', { teamid: t }, school)).errorCode).toBe(0);
    const list = await s.call('as.m.assess.getTaskList', { taskname: '期中' }, school);
    expect(list.data.rows[0]).toMatchObject({ status: 'ended', teams: [{ teamid: t, teamname: '滨江一中 初一 8班' }] });
  });

  it('lists grades in school order (初一, 初二, 初三, then 高一), not in text order', async () => {
    // Last in this file: the other tests count the school's teams.
    for (const grade of ['高一', '初三', '初一', '初二']) await newClass('1班', { school: '排序中学', grade });
    expect((await s.call('as.m.assess.getGradeList', { school: '排序中学' }, school)).data).toEqual(['初一', '初二', '初三', '高一']);
    const page = await s.call('as.m.assess.getAssessTeamPageList', { school: '排序中学', pageSize: 20 }, school);
    expect(page.data.rows.map((r: { grade: string }) => r.grade)).toEqual(['初一', '初二', '初三', '高一']);
  });
});
