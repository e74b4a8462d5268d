import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, NAME_RULE } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { fingerprint } from '../../test/sweep/fingerprint.js';
import { auditLog } from '../audit/tables.js';
import { cuser } from './tables.js';
import { openArchive } from './identity.js';
import { idNumber, olderAdultRows, rosterFile, templateHeader } from './test-roster.js';
import { consented, TEST_SIGNATURE } from '../../test/consent.js';
import { bufferCalls } from '../../test/buffer-calls.js';

const STUDENTS = '000000002';
const OLDER = '000000004';
const b64 = (b: Buffer) => b.toString('base64');
const ID1 = idNumber('330108', '20100315', 12);

describe.each(engines('both'))('persons on %s', (engine) => {
  let s: TestServer;
  let school: string; // I0001, holds 0000801 (admin role)
  let teacher: string; // staff of I0001 without 0000801
  let hospital: string; // I0002, the school's sibling
  let provider: string; // P0001 over I0001..I0003
  let eldercare: string; // I0003
  let employer: string; // I0004, under no provider
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  // A test moves the clock (reports a month apart): staff sign in afresh for each test, each
  // sign-in from an address of its own (sign-ins are rate-limited per address).
  let signins = 0;
  const signIn = async (u: string) => (await s.login(u, undefined, `10.7.${Math.floor(++signins / 200)}.${signins % 200}`)).token;
  beforeEach(async () => {
    [school, teacher, hospital, provider, eldercare, employer] = await Promise.all(['schooladmin', 'teacher', 'hospital', 'provider', 'eldercare', 'warning'].map(signIn));
  });
  afterAll(() => s?.close());

  const download = (name: string, body: Record<string, unknown>, token: string) => s.raw(name, JSON.stringify(body), { token });
  const audits = (action: string) => s.database.db.select().from(auditLog).where(eq(auditLog.action, action));
  const student = (extra: Record<string, unknown> = {}) => ({
    appid: STUDENTS,
    realname: '林小雨',
    gender: '02',
    birthdate: '2010-03-15',
    phonenumber: '13812345678',
    idcard: ID1,
    archive: [
      { no: 1, value: 2 },
      { no: 2, value: 8 },
      { no: 4, value: 1 },
      { no: 5, value: '330108' },
      { no: 6, value: '07:30-17:10' },
    ],
    ...extra,
  });

  it('registers a person with archive answers; lists mask phone and ID unless the caller holds 0000801 (full reads audited)', async () => {
    const made = await s.call('as.m.cuser.insertCUser', student(), school);
    expect(made.errorCode, made.errorMsg).toBe(0);
    const { cusercode } = made.data;

    const masked = await s.call('as.m.cuser.getCUserPageList', { realname: '林小雨' }, teacher);
    expect(masked.data.rows).toEqual([expect.objectContaining({ cusercode, musercode: 'I0001', phonenumber: '138****5678', idcard: '3301**********' + ID1.slice(-4), gender: '02', birthdate: '2010-03-15', source: 'console' })]);
    const full = await s.call('as.m.cuser.getCUserPageList', { realname: '林小雨' }, school);
    expect(full.data.rows[0]).toMatchObject({ phonenumber: '13812345678', idcard: ID1 });
    expect((await audits('as.m.cuser.getCUserPageList')).map((a) => a.detail)).toContainEqual({ revealed: [cusercode] });

    const one = await s.call('as.m.assess.getCUser', { cusercode }, school);
    expect(one.data).toMatchObject({ cusercode, idcard: ID1, reportcount: 0, archive: expect.arrayContaining([{ no: 1, value: 2 }, { no: 5, value: '330108' }]) });
    expect((await audits('as.m.assess.getCUser')).map((a) => a.detail)).toContainEqual({ revealed: [cusercode] });
    expect((await s.call('as.m.assess.getCUser', { cusercode }, teacher)).data.phonenumber).toBe('138****5678');
  });

  it('a sibling institution or another provider does not find the person; the provider does', async () => {
    const { cusercode } = (await s.call('as.m.cuser.insertCUser', student({ realname: '周同学', idcard: '' }), school)).data;
    for (const token of [hospital, employer]) {
      expect((await s.call('as.m.assess.getCUser', { cusercode }, token)).errorCode).toBe(ErrorCode.notFound);
      expect((await s.call('as.m.cuser.getCUserArchive', { cusercode }, token)).errorCode).toBe(ErrorCode.notFound);
      expect((await s.call('as.m.cuser.updateCUser', { cusercode, realname: 'x' }, token)).errorCode).toBe(ErrorCode.notFound);
      expect((await s.call('as.m.cuser.deleteCUser', { cusercode }, token)).errorCode).toBe(ErrorCode.notFound);
      expect((await s.call('as.m.cuser.deleteCUserArchive', { cusercode }, token)).errorCode).toBe(ErrorCode.notFound);
    }
    expect((await s.call('as.m.cuser.getCUserPageList', { musercode: 'I0001' }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.cuser.getCUserPageList', { realname: '周同学' }, hospital)).data.total).toBe(0);
    expect((await s.call('as.m.assess.getCUser', { cusercode }, provider)).data.insname).toBe('滨江第一中学');
    // The provider registers for an institution it serves, not for one it does not.
    expect((await s.call('as.m.cuser.insertCUser', { ...student({ idcard: '' }), musercode: 'I0001' }, provider)).errorCode).toBe(0);
    expect((await s.call('as.m.cuser.insertCUser', { ...student({ idcard: '' }), musercode: 'I0004' }, provider)).errorCode).toBe(ErrorCode.notFound);
    // An app the institution does not have.
    expect((await s.call('as.m.cuser.insertCUser', { appid: OLDER, realname: '张三', gender: '01' }, school)).errorCode).toBe(ErrorCode.validation);
  });

  it('refuses bad persons and bad archives with the question named, and changes nothing', async () => {
    const before = await fingerprint(s.database.db);
    const bad: [Record<string, unknown>, RegExp | null][] = [
      [student({ gender: '03' }), null],
      [student({ idcard: ID1.slice(0, 17) + (ID1[17] === '1' ? '2' : '1') }), null],
      [student({ phonenumber: '12345' }), null],
      [student({ birthdate: '2010-02-30' }), null],
      [student({ archive: [{ no: 1, value: 9 }] }), /第1题/],
      [student({ archive: [{ no: 1, value: 2 }, { no: 2, value: 13 }] }), /第2题/],
      [student({ archive: [{ no: 1, value: 2 }, { no: 5, value: '浙江' }] }), /第5题/],
      [student({ archive: [{ no: 1, value: 2 }, { no: 5, value: '339999' }] }), /第5题须为有效的行政区划代码/],
      [student({ archive: [{ no: 1, value: 2 }, { no: 6, value: '18:00-07:00' }] }), /第6题/],
      [student({ archive: [{ no: 1, value: 2 }, { no: 99, value: 'x' }] }), /第99题/],
      [student({ archive: [{ no: 2, value: 8 }] }), /第1题必填/],
      [student({ archive: [{ no: 1, value: [1, 2] }] }), /第1题/],
    ];
    for (const [body, message] of bad) {
      const r = await s.call('as.m.cuser.insertCUser', body, school);
      expect(r.errorCode, JSON.stringify(body)).toBe(ErrorCode.validation);
      if (message) expect(r.errorMsg).toMatch(message);
    }
    const en = await s.call('as.m.cuser.insertCUser', student({ archive: [{ no: 1, value: 9 }] }), school, { 'accept-language': 'en-US' });
    expect(en.errorMsg).toMatch(/question 1 must be an option number 1–5/);
    // The same ID number twice in one institution: a conflict (unique index).
    expect((await s.call('as.m.cuser.insertCUser', student(), school)).errorCode).toBe(ErrorCode.conflict);
    expect(await fingerprint(s.database.db)).toEqual(before);
  });

  it('one ID number per institution holds under parallel registrations (unique index), and another institution may reuse it', async () => {
    const id = idNumber('330108', '20090101', 77);
    const results = await Promise.all(Array.from({ length: 8 }, () => s.call('as.m.cuser.insertCUser', student({ realname: '并发', idcard: id }), school)));
    expect(results.filter((r) => r.errorCode === 0)).toHaveLength(1);
    expect(results.filter((r) => r.errorCode === ErrorCode.conflict)).toHaveLength(7);
    expect((await s.call('as.m.cuser.insertCUser', { appid: '000000001', realname: '并发', gender: '02', idcard: id }, hospital)).errorCode).toBe(0);
    // A deleted person's number may come back.
    const { cusercode } = results.find((r) => r.errorCode === 0)!.data;
    expect((await s.call('as.m.cuser.deleteCUser', { cusercode }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.cuser.insertCUser', student({ realname: '并发', idcard: id }), school)).errorCode).toBe(0);
  });

  it('updates fields and replaces the archive; deleting keeps the row and the audit trail but leaves every list', async () => {
    const { cusercode } = (await s.call('as.m.cuser.insertCUser', student({ realname: '待删除', idcard: '' }), school)).data;
    expect((await s.call('as.m.cuser.updateCUser', { cusercode, phonenumber: '13900001111', archive: [{ no: 1, value: 3 }] }, school)).errorCode).toBe(0);
    const read = (await s.call('as.m.assess.getCUser', { cusercode }, school)).data;
    expect(read).toMatchObject({ realname: '待删除', phonenumber: '13900001111', archive: [{ no: 1, value: 3 }] });
    expect((await s.call('as.m.cuser.updateCUser', { cusercode, archive: [{ no: 1, value: 0 }] }, school)).errorCode).toBe(ErrorCode.validation);

    expect((await s.call('as.m.cuser.deleteCUser', { cusercode }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.assess.getCUser', { cusercode }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.cuser.getCUserPageList', { realname: '待删除' }, school)).data.total).toBe(0);
    expect((await s.call('as.m.cuser.deleteCUser', { cusercode }, school)).errorCode).toBe(ErrorCode.notFound);
    const [row] = await s.database.db.select().from(cuser).where(eq(cuser.cusercode, cusercode));
    expect(row).toMatchObject({ realname: '待删除', deletedby: 'I0001/U0002' });
    expect(row!.deletedat).not.toBeNull();
    expect((await audits('as.m.cuser.deleteCUser')).map((a) => a.detail)).toContainEqual(expect.objectContaining({ cusercode, realname: '待删除', reports: 0 }));
  });

  it('archive heads come from the app’s archive form; archive lists show answer texts; one archive has details and reports', async () => {
    const head = await s.call('as.m.cuser.getCUserArchiveHeadList', { appid: STUDENTS }, school);
    expect(head.data).toMatchObject({ formcode: 'ARCHIVE_YE', version: 1 });
    expect(head.data.columns.map((c: { key: string; inputtype: number | null }) => [c.key, c.inputtype])).toEqual([
      ['q1', null],
      ['q2', 1],
      ['q3', 0],
      ['q4', null],
      ['q5', 8],
      ['q6', 6],
    ]);
    const en = await s.call('as.m.cuser.getCUserArchiveHeadList', { appid: STUDENTS }, school, { 'accept-language': 'en-US' });
    expect(en.data.formname).toBe('Student archive');

    const { cusercode } = (await s.call('as.m.cuser.insertCUser', student({ realname: '档案甲', idcard: '' }), school)).data;
    const page = await s.call('as.m.cuser.getCUserArchivePageList', { appid: STUDENTS, realname: '档案甲' }, teacher);
    expect(page.data.rows).toEqual([expect.objectContaining({ cusercode, archive: { q1: '初中', q2: '8', q4: '是', q5: '浙江省杭州市滨江区', q6: '07:30-17:10' }, phonenumber: '138****5678' })]);
    const enPage = await s.call('as.m.cuser.getCUserArchivePageList', { appid: STUDENTS, realname: '档案甲' }, teacher, { 'accept-language': 'en-US' });
    expect(enPage.data.rows[0].archive.q1).toBe('Junior secondary');
    // The teacher's role opens the students' archive page only (000000002, not 00049).
    for (const [name, body] of [
      ['as.m.cuser.getCUserArchivePageList', { appid: '000000001' }],
      ['as.m.cuser.getCUserArchiveHeadList', { appid: '000000001' }],
    ] as const)
      expect((await s.call(name, body, teacher)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.cuser.getCUserArchivePageList', {}, teacher)).data.rows.every((r: { appid: string }) => r.appid === STUDENTS)).toBe(true);
    // The demo has students in the archive too.
    expect((await s.call('as.m.cuser.getCUserArchivePageList', { appid: STUDENTS }, school)).data.total).toBeGreaterThan(100);

    const one = await s.call('as.m.cuser.getCUserArchive', { cusercode }, teacher);
    expect(one.data).toMatchObject({ person: { cusercode, realname: '档案甲' }, display: { q1: '初中' }, reports: [] });
    expect(one.data.columns).toHaveLength(6);

    expect((await s.call('as.m.cuser.deleteCUserArchive', { cusercode }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.assess.getCUser', { cusercode }, school)).data.archive).toEqual([]);
    expect((await audits('as.m.cuser.deleteCUserArchive')).map((a) => a.detail)).toContainEqual(expect.objectContaining({ cusercode, archive: expect.arrayContaining([{ no: 1, value: 2 }]) }));
  });

  it('one archive lists the person’s reports over time, oldest first, with indicator scores for the trend', async () => {
    const plan = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: STUDENTS, planname: '档案趋势', formcodes: ['PHQ9'] }, school);
    expect(plan.errorCode, plan.errorMsg).toBe(0);
    const { cusercode } = (await s.call('as.m.cuser.insertCUser', student({ realname: '趋势乙', idcard: '' }), school)).data;
    const sheet = (option: number) => Array.from({ length: 9 }, (_, i) => ({ no: i + 1, option }));
    for (const option of [3, 1]) {
      const staff = await signIn('schooladmin');
      const code = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan.data.plancode }, staff);
      expect(code.errorCode, code.errorMsg).toBe(0);
      const started = await s.call('as.c.exam.start', { assesscode: code.data.assesscode }, undefined, { 'x-test-ip': `10.9.0.${option}` });
      expect(started.errorCode, started.errorMsg).toBe(0);
      await consented(s, started.data.token);
      await s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, started.data.token);
      const sent = await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(option) }, started.data.token);
      expect(sent.errorCode, sent.errorMsg).toBe(0);
      s.clock.advance(30 * 86_400_000);
    }
    const fresh = await signIn('teacher'); // the clock moved a month: sign in again
    const archive = await s.call('as.m.cuser.getCUserArchive', { cusercode }, fresh);
    expect(archive.errorCode, archive.errorMsg).toBe(0);
    const reports = archive.data.reports as { formcode: string; createdat: string; indicators: { score: number }[] }[];
    expect(reports.map((r) => [r.formcode, r.indicators[0]!.score])).toEqual([
      ['PHQ9', 18],
      ['PHQ9', 0],
    ]);
    expect(reports[0]!.createdat < reports[1]!.createdat).toBe(true);
    expect((await s.call('as.m.assess.getCUser', { cusercode }, fresh)).data.reportcount).toBe(2);
  });

  it('the demo has a few hundred persons across the four populations', async () => {
    const admin = await signIn('admin');
    const total = async (appid: string) => (await s.call('as.m.cuser.getCUserPageList', { appid, pageSize: 1 }, admin)).data.total;
    expect(await total('000000001')).toBeGreaterThanOrEqual(80);
    expect(await total('000000002')).toBeGreaterThanOrEqual(120);
    expect(await total('000000003')).toBeGreaterThanOrEqual(60);
    expect(await total('000000004')).toBeGreaterThanOrEqual(60);
  });

  it('imports a roster: template, preview naming every bad row, refused commit storing nothing, then all rows', async () => {
    const template = await download('as.m.cuser.getCUserImportTemplate', { template: 'ZLB' }, eldercare);
    expect(template.statusCode).toBe(200);
    const header = await templateHeader(template.rawPayload);
    expect(header.slice(0, 5)).toEqual(['*姓名 Name [realname]', '*性别（男/女） Gender (M/F) [gender]', '出生日期 Birth date (YYYY-MM-DD) [birthdate]', '手机号 Phone [phonenumber]', '身份证号 ID number [idcard]']);
    expect(header[5]).toMatch(/^\*居住状况 .*\[q1\]$/);

    const good = [...olderAdultRows(5)];
    const rows = [
      ...good,
      ['', '男', '1950-01-01', null, null, '独居', null, null, null, null], // row 7: no name
      ['赵六', '未知', '1950-13-01', '1234', idNumber('330102', '19500101', 1).slice(0, 17) + 'Y', '火星', '高血压,骨折', null, '杭州', 30], // row 8: six problems
      [...good[0]!.slice(0, 4), good[0]![4], '独居', null, null, null, null], // row 9: same ID as row 2
    ];
    const file = b64(await rosterFile(header, rows));
    const before = await fingerprint(s.database.db);
    const preview = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: file }, eldercare);
    expect(preview.errorCode, preview.errorMsg).toBe(0);
    expect(preview.data).toMatchObject({ mode: 'preview', total: 8, imported: 0 });
    const where = preview.data.problems.map((p: { row: number; column: string }) => `${p.row}:${/\[(\w+)\]/.exec(p.column)?.[1]}`);
    expect(where).toEqual(['7:realname', '8:gender', '8:birthdate', '8:phonenumber', '8:idcard', '8:q1', '8:q2', '8:q4', '8:q5', '9:idcard']);
    expect(preview.data.problems[9].reason).toBe('与第2行身份证号重复');
    expect(preview.data.problemcount).toBe(10);
    // The same problems as a workbook to download.
    const errors = new ExcelJS.Workbook();
    await errors.xlsx.load(Buffer.from(preview.data.errorfile, 'base64') as unknown as ArrayBuffer);
    expect(errors.worksheets[0]!.rowCount).toBe(11);
    expect(errors.worksheets[0]!.getRow(11).values).toEqual([undefined, 9, expect.stringContaining('[idcard]'), '与第2行身份证号重复']);

    const refused = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: file, mode: 'commit' }, eldercare);
    expect(refused.errorCode).toBe(ErrorCode.badImportFile);
    expect(refused.errorMsg).toMatch(/未导入任何人：共 10 处错误；第7行「\*?姓名/);
    const refusedEn = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: file, mode: 'commit' }, eldercare, { 'accept-language': 'en-US' });
    expect(refusedEn.errorMsg).toMatch(/^Nothing imported: 10 problems; row 7/);
    expect(await fingerprint(s.database.db)).toEqual(before);

    const fixed = b64(await rosterFile(header, good));
    expect((await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: fixed }, eldercare)).data).toMatchObject({ total: 5, imported: 5, problemcount: 0, errorfile: '' });
    const done = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: fixed, mode: 'commit' }, eldercare);
    expect(done.data).toMatchObject({ mode: 'commit', total: 5, imported: 5 });
    const stored = await s.database.db.select().from(cuser).where(and(eq(cuser.musercode, 'I0003'), eq(cuser.source, 'import'), eq(cuser.realname, '老人1')));
    // The fill-in is stored sealed (issue 30 §3), the choices and numbers plain.
    expect(stored[0]!.archive.find((a) => a.no === 4)).not.toHaveProperty('value');
    expect({ ...stored[0], archive: openArchive(stored[0]!.archive) }).toMatchObject({ appid: OLDER, gender: '01', archive: [{ no: 1, value: 2 }, { no: 2, value: [2, 3] }, { no: 4, value: '330102' }, { no: 5, value: 7.5 }] });
    // The same file again: every ID number is taken now.
    const again = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: fixed }, eldercare);
    expect(again.data.problemcount).toBe(5);
    expect(again.data.problems[0].reason).toBe('该身份证号的测评对象已存在');
    expect((await audits('as.m.cuser.importZLBCUserFromExcel')).map((a) => a.detail)).toContainEqual(expect.objectContaining({ mode: 'commit', imported: 5 }));
  });

  it('refuses a person of an app the institution does not have, a name outside the name rule and an out-of-range archive value, storing nothing', async () => {
    const before = await fingerprint(s.database.db);
    const maternity = { appid: '000000001', gender: '02', archive: [{ no: 1, value: 2 }] };
    // The maternity hospital has no students (the console offers only its own apps, too).
    const students = await s.call('as.m.cuser.insertCUser', { appid: STUDENTS, realname: '林小雨', gender: '02' }, hospital, { 'accept-language': 'en-US' });
    expect(students.errorCode).toBe(ErrorCode.validation);
    expect(students.errorMsg).toBe('The institution does not have this app: 000000002');
    // Emoji, a 10,000-character name: refused with the rule said, never cut or cleaned.
    const emoji = await s.call('as.m.cuser.insertCUser', { ...maternity, realname: '孕妈😀' }, hospital);
    expect(emoji.errorCode).toBe(ErrorCode.validation);
    expect(emoji.errorMsg).toContain(NAME_RULE.zh);
    const emojiEn = await s.call('as.m.cuser.insertCUser', { ...maternity, realname: '孕妈😀' }, hospital, { 'accept-language': 'en-US' });
    expect(emojiEn.errorMsg).toContain(NAME_RULE.en);
    const long = await s.call('as.m.cuser.insertCUser', { ...maternity, realname: '林'.repeat(10_000) }, hospital);
    expect(long.errorCode).toBe(ErrorCode.validation);
    expect(long.errorMsg).toContain('realname');
    // Week of pregnancy 99 of 0–45: refused, not stored as 45.
    const weeks = await s.call('as.m.cuser.insertCUser', { ...maternity, realname: '孕妈小林', archive: [{ no: 1, value: 2 }, { no: 3, value: 99 }] }, hospital);
    expect(weeks.errorCode).toBe(ErrorCode.validation);
    expect(weeks.errorMsg).toMatch(/第3题须在 0–45 之间/);
    expect(await fingerprint(s.database.db)).toEqual(before);
    // A name of a minority or foreign person goes in as typed.
    const made = await s.call('as.m.cuser.insertCUser', { ...maternity, realname: '阿依古丽·吐尔逊' }, hospital);
    expect(made.errorCode, made.errorMsg).toBe(0);
    expect((await s.call('as.m.assess.getCUser', { cusercode: made.data.cusercode }, hospital)).data.realname).toBe('阿依古丽·吐尔逊');
    // An edit is held to the same rule.
    const edit = await s.call('as.m.cuser.updateCUser', { cusercode: made.data.cusercode, realname: 'x😀' }, hospital);
    expect(edit.errorCode).toBe(ErrorCode.validation);
  });

  it('an import reports a name outside the rule as a bad row, as it is, and stores nothing', async () => {
    const header = await templateHeader((await download('as.m.cuser.getCUserImportTemplate', { template: 'ZLB' }, eldercare)).rawPayload);
    const rows = [...olderAdultRows(3, 300)];
    rows[1]![0] = '老人😀';
    rows[2]![0] = '老'.repeat(51);
    const before = await fingerprint(s.database.db);
    const preview = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: b64(await rosterFile(header, rows)) }, eldercare);
    expect(preview.data).toMatchObject({ total: 3, imported: 0, problemcount: 2 });
    expect(preview.data.problems).toEqual([
      { row: 3, column: expect.stringContaining('[realname]'), reason: NAME_RULE.zh },
      { row: 4, column: expect.stringContaining('[realname]'), reason: '不能超过 50 个字符' },
    ]);
    const commit = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: b64(await rosterFile(header, rows)), mode: 'commit' }, eldercare);
    expect(commit.errorCode).toBe(ErrorCode.badImportFile);
    expect(await fingerprint(s.database.db)).toEqual(before);
  });

  it('refuses imports for an app the institution lacks, another scope, and files that are not rosters', async () => {
    const header = await templateHeader((await download('as.m.cuser.getCUserImportTemplate', { template: 'ZLB' }, eldercare)).rawPayload);
    const file = b64(await rosterFile(header, [...olderAdultRows(2, 100)]));
    expect((await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: file }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: file, musercode: 'I0003' }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: b64(Buffer.from('not a workbook')) }, eldercare)).errorCode).toBe(ErrorCode.badImportFile);
    const noHeader = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: b64(await rosterFile(['name', 'gender'], [['a', '男']])) }, eldercare);
    expect(noHeader.data.problems.map((p: { reason: string }) => p.reason)).toEqual(['表头缺少必填列', '表头缺少必填列', '表头缺少必填列']);
  });

  it('roster imports take bodies above the server’s body limit (a 50,000-row file); other actions do not', async () => {
    const big = 'A'.repeat(3 * 1024 * 1024);
    const roster = await s.raw('as.m.cuser.importZLBCUserFromExcel', JSON.stringify({ filename: 'r.xlsx', content: big }), { token: eldercare });
    expect(roster.json().errorCode).toBe(ErrorCode.badImportFile); // read, and refused as no workbook
    const other = await s.raw('as.m.cuser.getCUserPageList', JSON.stringify({ realname: big }), { token: eldercare });
    expect(other.statusCode).toBe(413);
  });

  it('decodes a large roster’s base64 in the JSON worker, not on the event loop; line-broken base64 is read here; a bad character refuses the file', async () => {
    const header = await templateHeader((await download('as.m.cuser.getCUserImportTemplate', { template: 'ZLB' }, eldercare)).rawPayload);
    const file = await rosterFile(header, olderAdultRows(1500, 5000));
    const content = b64(file);
    expect(content.length).toBeGreaterThan(64 * 1024); // long enough for the worker to lift it
    // Spaces after the JSON make the body large enough to be parsed off the thread (over 1 MiB).
    const body = (content: string) => JSON.stringify({ filename: 'r.xlsx', content }) + ' '.repeat(1024 * 1024);
    const preview = await bufferCalls('from', 64 * 1024, () => s.raw('as.m.cuser.importZLBCUserFromExcel', body(content), { token: eldercare }));
    expect(preview.result.json().data).toMatchObject({ mode: 'preview', total: 1500, problemcount: 0 });
    expect(preview.sizes).toEqual([]);

    // Base64 broken into lines of 76 (as mail and some tools write it): still the same file.
    const lines = content.replace(/.{76}/g, '$&\r\n');
    expect((await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: lines }, eldercare)).data).toMatchObject({ total: 1500, problemcount: 0 });

    const before = await s.database.db.select({ n: cuser.cusercode }).from(cuser).where(eq(cuser.musercode, 'I0003'));
    for (const bad of [`${content.slice(0, 70_000)}@${content.slice(70_001)}`, '%%%']) {
      const res = await s.raw('as.m.cuser.importZLBCUserFromExcel', body(bad).replace('{', '{"mode":"commit",'), { token: eldercare, 'accept-language': 'en-US' });
      expect(res.json()).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: 'The file data is not valid base64' });
    }
    expect(await s.database.db.select({ n: cuser.cusercode }).from(cuser).where(eq(cuser.musercode, 'I0003'))).toHaveLength(before.length);
  });

  it('exports the filtered list as a streamed workbook: masked, formula cells escaped, audited', async () => {
    // The name rule refuses such a name now; one stored before it (or written by hand) is still escaped.
    const { cusercode: formula } = (await s.call('as.m.cuser.insertCUser', student({ realname: '公式', idcard: '' }), school)).data;
    await s.database.db.update(cuser).set({ realname: '=HYPERLINK("http://x")' }).where(eq(cuser.cusercode, formula));
    const res = await download('as.m.cuser.exportCuserList', { appid: STUDENTS, realname: 'HYPERLINK' }, teacher);
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('姓名');
    expect(ws.getRow(1).getCell(10).value).toBe('学段');
    expect(ws.getRow(2).getCell(1).value).toBe(`'=HYPERLINK("http://x")`);
    expect(ws.getRow(2).getCell(4).value).toBe('138****5678');
    expect(ws.getRow(2).getCell(10).value).toBe('初中');
    expect(ws.rowCount).toBe(2);
    expect((await audits('as.m.cuser.exportCuserList')).map((a) => a.detail)).toContainEqual(expect.objectContaining({ revealed: false }));
    expect((await download('as.m.cuser.exportCuserList', { musercode: 'I0001' }, hospital)).json().errorCode).toBe(ErrorCode.notFound);
  });
});
