import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { fingerprint } from '../../test/sweep/fingerprint.js';
import { auditLog } from '../audit/tables.js';
import { cuser } from './tables.js';
import { idNumber, olderAdultRows, rosterFile, templateHeader } from './test-roster.js';

const STUDENTS = '000000002';
const OLDER = '000000004';
const b64 = (b: Buffer) => b.toString('base64');
const ID1 = idNumber('330108', '20100315', 12);

describe.each(engines())('persons on %s', (engine) => {
  let s: TestServer;
  let school: string; // I0001, holds 0000801 (admin role)
  let teacher: string; // staff of I0001 without 0000801
  let hospital: string; // I0002, the school's sibling
  let provider: string; // P0001 over I0001..I0003
  let eldercare: string; // I0003
  let employer: string; // I0004, under no provider
  beforeAll(async () => {
    s = await startTestServer(engine);
    [school, teacher, hospital, provider, eldercare, employer] = await Promise.all(
      ['schooladmin', 'teacher', 'hospital', 'provider', 'eldercare', 'warning'].map(async (u) => (await s.login(u)).token),
    );
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
    expect(page.data.rows).toEqual([expect.objectContaining({ cusercode, archive: { q1: '初中', q2: '8', q4: '是', q5: '330108', q6: '07:30-17:10' }, phonenumber: '138****5678' })]);
    const enPage = await s.call('as.m.cuser.getCUserArchivePageList', { appid: STUDENTS, realname: '档案甲' }, teacher, { 'accept-language': 'en-US' });
    expect(enPage.data.rows[0].archive.q1).toBe('Junior secondary');
    // The demo has students in the archive too.
    expect((await s.call('as.m.cuser.getCUserArchivePageList', { appid: STUDENTS }, school)).data.total).toBeGreaterThan(100);

    const one = await s.call('as.m.cuser.getCUserArchive', { cusercode }, teacher);
    expect(one.data).toMatchObject({ person: { cusercode, realname: '档案甲' }, display: { q1: '初中' }, reports: [] });
    expect(one.data.columns).toHaveLength(6);

    expect((await s.call('as.m.cuser.deleteCUserArchive', { cusercode }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.assess.getCUser', { cusercode }, school)).data.archive).toEqual([]);
    expect((await audits('as.m.cuser.deleteCUserArchive')).map((a) => a.detail)).toContainEqual(expect.objectContaining({ cusercode, archive: expect.arrayContaining([{ no: 1, value: 2 }]) }));
  });

  it('the demo has a few hundred persons across the four populations', async () => {
    const admin = (await s.login('admin')).token;
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

    const refused = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: file, mode: 'commit' }, eldercare);
    expect(refused.errorCode).toBe(ErrorCode.badImportFile);
    expect(refused.errorMsg).toMatch(/未导入任何人：共 10 处错误；第7行「\*?姓名/);
    const refusedEn = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: file, mode: 'commit' }, eldercare, { 'accept-language': 'en-US' });
    expect(refusedEn.errorMsg).toMatch(/^Nothing imported: 10 problems; row 7/);
    expect(await fingerprint(s.database.db)).toEqual(before);

    const fixed = b64(await rosterFile(header, good));
    expect((await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: fixed }, eldercare)).data).toMatchObject({ total: 5, imported: 5, problemcount: 0 });
    const done = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: fixed, mode: 'commit' }, eldercare);
    expect(done.data).toMatchObject({ mode: 'commit', total: 5, imported: 5 });
    const stored = await s.database.db.select().from(cuser).where(and(eq(cuser.musercode, 'I0003'), eq(cuser.source, 'import'), eq(cuser.realname, '老人1')));
    expect(stored[0]).toMatchObject({ appid: OLDER, gender: '01', archive: [{ no: 1, value: 2 }, { no: 2, value: [2, 3] }, { no: 4, value: '330102' }, { no: 5, value: 7.5 }] });
    // The same file again: every ID number is taken now.
    const again = await s.call('as.m.cuser.importZLBCUserFromExcel', { filename: 'r.xlsx', content: fixed }, eldercare);
    expect(again.data.problemcount).toBe(5);
    expect(again.data.problems[0].reason).toBe('该身份证号的测评对象已存在');
    expect((await audits('as.m.cuser.importZLBCUserFromExcel')).map((a) => a.detail)).toContainEqual(expect.objectContaining({ mode: 'commit', imported: 5 }));
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

  it('exports the filtered list as a streamed workbook: masked, formula cells escaped, audited', async () => {
    await s.call('as.m.cuser.insertCUser', student({ realname: '=HYPERLINK("http://x")', idcard: '' }), school);
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
