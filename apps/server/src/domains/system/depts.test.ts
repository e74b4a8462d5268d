import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ErrorCode, type DeptRow } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { auditLog } from '../audit/tables.js';
import { dept } from './tables.js';
import { openContact } from './contact.js';

const ids = (rows: DeptRow[]) => rows.map((r) => r.deptid);

describe.each(engines())('department management on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let provider: string;
  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    provider = (await s.login('provider')).token;
  });
  afterAll(() => s?.close());

  const deptsOf = async (musercode: string) => s.database.db.select().from(dept).where(eq(dept.musercode, musercode));
  // Phone and email are stored sealed (contact.ts): read back opened.
  const one = async (deptid: string) => {
    const [row] = await s.database.db.select().from(dept).where(eq(dept.deptid, deptid));
    return row && openContact(row);
  };

  it('lists the caller’s departments in tree order with user counts, filtered by name and state', async () => {
    const res = await s.call('as.m.system.dept.selectDeptList', {}, school);
    expect(res.errorCode).toBe(0);
    expect(ids(res.data)).toEqual(['D0001', 'D0002', 'D0004', 'D0003']);
    expect(res.data.find((d: DeptRow) => d.deptid === 'D0002')).toMatchObject({ parentid: 'D0001', deptname: '心理健康中心', usercount: 2, leader: '李主任', enabled: 1, insname: '滨江第一中学' });
    expect(ids((await s.call('as.m.system.dept.selectDeptList', { deptname: '德育' }, school)).data)).toEqual(['D0003']);
    expect((await s.call('as.m.system.dept.selectDeptList', { enabled: 0 }, school)).data).toEqual([]);
    expect((await s.call('as.m.system.dept.selectDeptList', { enabled: '' }, school)).data).toHaveLength(4);
  });

  it('shows a provider its institutions’ departments; an institution never sees another’s', async () => {
    expect(ids((await s.call('as.m.system.dept.selectDeptList', {}, provider)).data).sort()).toEqual(['D0001', 'D0002', 'D0003', 'D0004', 'D0101', 'D0102']);
    expect(ids((await s.call('as.m.system.dept.selectDeptList', { musercode: 'I0002' }, provider)).data)).toEqual(['D0101', 'D0102']);
    expect((await s.call('as.m.system.dept.selectDeptList', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('refuses every department action to a caller without department management', async () => {
    const teacher = (await s.login('teacher')).token;
    const calls: [string, Record<string, unknown>][] = [
      ['as.m.system.dept.selectDeptList', {}],
      ['as.m.system.dept.selectDeptListExcludeChild', { deptid: 'D0003' }],
      ['as.m.system.dept.insertDept', { parentid: 'D0001', deptname: '教务处' }],
      ['as.m.system.dept.updateDept', { deptid: 'D0003', deptname: 'x' }],
      ['as.m.system.dept.deleteDeptById', { deptid: 'D0004' }],
    ];
    for (const [name, body] of calls) expect((await s.call(name as never, body, teacher)).errorCode, name).toBe(ErrorCode.permissionDenied);
    expect(await deptsOf('I0001')).toHaveLength(4);
    expect((await one('D0003')).deptname).toBe('德育处');
  });

  it('offers as parents every department except itself and its descendants', async () => {
    expect(ids((await s.call('as.m.system.dept.selectDeptListExcludeChild', { deptid: 'D0003' }, school)).data)).toEqual(['D0001', 'D0002']);
    expect((await s.call('as.m.system.dept.selectDeptListExcludeChild', { deptid: 'D0001' }, school)).data).toEqual([]);
    expect(ids((await s.call('as.m.system.dept.selectDeptListExcludeChild', { deptid: 'D0102' }, provider)).data)).toEqual(['D0101']);
    expect((await s.call('as.m.system.dept.selectDeptListExcludeChild', { deptid: 'D0102' }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('creates departments under a parent of the same institution, or as a root', async () => {
    const res = await s.call('as.m.system.dept.insertDept', { parentid: 'D0001', deptname: '教务处', sort: 3, leader: '周主任', phonenumber: '0571-86000003', email: 'jwc@example.com' }, school);
    expect(res.errorCode).toBe(0);
    expect(await one(res.data.deptid)).toMatchObject({ musercode: 'I0001', parentid: 'D0001', deptname: '教务处', sort: 3, leader: '周主任', email: 'jwc@example.com', enabled: 1 });
    const root = await s.call('as.m.system.dept.insertDept', { deptname: '分校区' }, school);
    expect(await one(root.data.deptid)).toMatchObject({ parentid: null, musercode: 'I0001' });
    // A provider adds under its institution's department: the row is the hospital's.
    const forHospital = await s.call('as.m.system.dept.insertDept', { parentid: 'D0101', deptname: '产科' }, provider);
    expect((await one(forHospital.data.deptid)).musercode).toBe('I0002');
    const rootForHospital = await s.call('as.m.system.dept.insertDept', { deptname: '分院', musercode: 'I0002' }, provider);
    expect((await one(rootForHospital.data.deptid)).musercode).toBe('I0002');
    const audits = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'as.m.system.dept.insertDept'), eq(auditLog.result, 'ok')));
    expect(audits).toHaveLength(4);
  });

  it('refuses a parent of another institution, a duplicate sibling and bad input, changing nothing', async () => {
    const before = await deptsOf('I0001');
    expect((await s.call('as.m.system.dept.insertDept', { parentid: 'D0101', deptname: '外部' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.dept.insertDept', { parentid: 'D0101', deptname: '外部', musercode: 'I0001' }, provider)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.system.dept.insertDept', { deptname: '外部', musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    // An institution out of scope is not found even beside a parent of the caller's own.
    expect((await s.call('as.m.system.dept.insertDept', { parentid: 'D0001', deptname: '外部', musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    const dup = await s.call('as.m.system.dept.insertDept', { parentid: 'D0001', deptname: '德育处' }, school);
    expect(dup).toMatchObject({ errorCode: ErrorCode.conflict, errorMsg: '同级下已有部门“德育处”' });
    const bad: Record<string, unknown>[] = [
      { parentid: 'D0001', deptname: '' },
      { parentid: 'D0001', deptname: '   ' },
      { parentid: 'D0001', deptname: 'x'.repeat(31) },
      { parentid: 'D0001', deptname: 'ok', email: 'not-an-email' },
      { parentid: 'D0001', deptname: 'ok', phonenumber: 'call me' },
      { parentid: 'D0001', deptname: 'ok', enabled: 3 },
      { parentid: 'D 1', deptname: 'ok' },
      { parentid: 'D0001', deptname: 'ok', usercount: 1 },
    ];
    for (const body of bad) expect((await s.call('as.m.system.dept.insertDept', body, school)).errorCode, JSON.stringify(body)).toBe(ErrorCode.validation);
    expect(await deptsOf('I0001')).toEqual(before);
  });

  it('updates a department; it cannot move under itself or its descendants', async () => {
    expect((await s.call('as.m.system.dept.updateDept', { deptid: 'D0004', deptname: '高一年级', leader: '孙老师' }, school)).errorCode).toBe(0);
    expect(await one('D0004')).toMatchObject({ deptname: '高一年级', leader: '孙老师', parentid: 'D0003' });
    const under = await s.call('as.m.system.dept.updateDept', { deptid: 'D0003', parentid: 'D0004' }, school, { 'accept-language': 'en-US' });
    expect(under).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: 'A department cannot move under itself or one of its sub-departments' });
    expect((await s.call('as.m.system.dept.updateDept', { deptid: 'D0003', parentid: 'D0003' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await one('D0003')).parentid).toBe('D0001');
    expect((await s.call('as.m.system.dept.updateDept', { deptid: 'D0004', parentid: 'D0002' }, school)).errorCode).toBe(0);
    expect((await one('D0004')).parentid).toBe('D0002');
    expect((await s.call('as.m.system.dept.updateDept', { deptid: 'D0004', parentid: 'D0101' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.dept.updateDept', { deptid: 'D0004', parentid: 'D0101' }, provider)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.system.dept.updateDept', { deptid: 'D0102', deptname: 'x' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await one('D0102')).deptname).toBe('心理门诊');
  });

  it('cannot disable a department with enabled sub-departments, nor add under a disabled one', async () => {
    const res = await s.call('as.m.system.dept.updateDept', { deptid: 'D0002', enabled: 0 }, school);
    expect(res).toMatchObject({ errorCode: ErrorCode.conflict, errorMsg: '该部门包含未停用的下级部门，请先停用下级部门' });
    expect((await s.call('as.m.system.dept.updateDept', { deptid: 'D0004', enabled: 0 }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.system.dept.updateDept', { deptid: 'D0002', enabled: 0 }, school)).errorCode).toBe(0);
    const under = await s.call('as.m.system.dept.insertDept', { parentid: 'D0002', deptname: '咨询室' }, school);
    expect(under.errorCode).toBe(ErrorCode.conflict);
    expect(under.errorMsg).toContain('已停用');
    expect((await s.call('as.m.system.dept.updateDept', { deptid: 'D0002', enabled: 1 }, school)).errorCode).toBe(0);
  });

  it('refuses to delete a department that still has users or sub-departments, with a clear message', async () => {
    const withUsers = await s.call('as.m.system.dept.deleteDeptById', { deptid: 'D0102' }, provider);
    expect(withUsers).toMatchObject({ errorCode: ErrorCode.conflict, errorMsg: '部门“心理门诊”下还有 1 个用户，不能删除；请先将用户调到其他部门' });
    const en = await s.call('as.m.system.dept.deleteDeptById', { deptid: 'D0102' }, provider, { 'accept-language': 'en-US' });
    expect(en.errorMsg).toBe('The department "心理门诊" still has 1 user(s) and cannot be deleted; move them to another department first');
    const withChildren = await s.call('as.m.system.dept.deleteDeptById', { deptid: 'D0001' }, school);
    expect(withChildren.errorCode).toBe(ErrorCode.conflict);
    expect(withChildren.errorMsg).toContain('下级部门');
    expect(await one('D0102')).toBeDefined();
    expect(await one('D0001')).toBeDefined();
  });

  it('deletes an empty department (audited); another institution’s is not found', async () => {
    expect((await s.call('as.m.system.dept.deleteDeptById', { deptid: 'D0102' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.system.dept.deleteDeptById', { deptid: 'D0004' }, school)).errorCode).toBe(0);
    expect(await one('D0004')).toBeUndefined();
    const [audit] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'as.m.system.dept.deleteDeptById'), eq(auditLog.result, 'ok')));
    expect(audit).toMatchObject({ musercode: 'I0001', detail: { deptid: 'D0004', deptname: '高一年级' } });
    expect((await s.call('as.m.system.dept.deleteDeptById', { deptid: 'D0004' }, school)).errorCode).toBe(ErrorCode.notFound);
  });
});
