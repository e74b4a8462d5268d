import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import type { AnyPgTable } from 'drizzle-orm/pg-core';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { examStage, examStageForm, muserStage } from './tables.js';
import { muserApp } from '../apps/tables.js';
import { insertTestForm } from '../scales/test-forms.js';

describe.each(engines())('exam categories and stages on %s', (engine) => {
  let s: TestServer;
  let school: string, provider: string, teacher: string, bureau: string;
  const rows = async (t: AnyPgTable) => Number((await s.database.db.select({ n: count() }).from(t))[0]!.n);

  beforeAll(async () => {
    s = await startTestServer(engine);
    await insertTestForm(s.database.db, 'TSTA', null, ['000000001', '000000002']);
    await insertTestForm(s.database.db, 'TSTB', 'I0001', ['000000002']);
    await insertTestForm(s.database.db, 'TSTH', 'I0002', ['000000001']);
    [school, provider, teacher, bureau] = await Promise.all(['school', 'provider', 'teacher', 'bureau'].map(async (u) => (await s.login(u)).token));
  });
  afterAll(() => s?.close());

  it('lists the categories of an app, in the caller’s language; refuses a caller without the codes', async () => {
    const zh = await s.call('as.m.app.getExamCategoryList', { appid: '000000001' }, school);
    expect(zh.data.map((c: { categoryname: string }) => c.categoryname)).toEqual(['孕期', '产后']);
    const en = await s.call('as.m.app.getExamCategoryList', {}, school, { 'accept-language': 'en-US' });
    expect(en.data.length).toBeGreaterThan(8);
    expect(en.data.find((c: { categoryid: string }) => c.categoryid === 'C0102').categoryname).toBe('Postpartum');
    expect((await s.call('as.m.app.getExamCategoryList', {}, bureau)).errorCode).toBe(ErrorCode.permissionDenied);
  });

  it('creates a stage with forms, lists it, groups it and reads its forms', async () => {
    const res = await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0202', stagename: '初一测试阶段', sort: 1, formcodes: ['TSTB', 'TSTA'] }, school);
    expect(res.errorCode).toBe(0);
    const stagecode = res.data.stagecode;
    const list = await s.call('as.m.app.exam.getExamStageList', { musercode: 'I0001', stagename: '测试阶段' }, school);
    expect(list.data.total).toBe(1);
    expect(list.data.rows[0]).toMatchObject({ stagecode, stagename: '初一测试阶段', musercode: 'I0001', insname: '滨江第一中学', appid: '000000002', categoryid: 'C0202', categoryname: '初中', formcount: 2, editable: true });
    const forms = await s.call('as.m.app.exam.getExamStageForms', { stagecode }, school);
    expect(forms.data.map((f: { formcode: string }) => f.formcode)).toEqual(['TSTB', 'TSTA']);
    expect(forms.data[1]).toMatchObject({ builtin: true, questioncount: 2, version: 1 });
    const groups = await s.call('as.m.app.exam.getExamStageListGroupByAppidCategoryid', { appid: '000000002' }, school);
    const group = groups.data.find((g: { categoryid: string }) => g.categoryid === 'C0202');
    expect(group.stages.map((x: { stagecode: string }) => x.stagecode)).toContain(stagecode);
    // The provider sees its institution's stage.
    const seen = await s.call('as.m.app.exam.getExamStageList', { musercode: 'I0001', pageSize: 200 }, provider);
    expect(seen.data.rows.map((r: { stagecode: string }) => r.stagecode)).toContain(stagecode);
    expect((await s.call('as.m.exam.getExamForms', { stagecode }, school)).data).toHaveLength(2);
  });

  it('refuses bad input and changes nothing', async () => {
    const before = [await rows(examStage), await rows(examStageForm)];
    const wrongApp = await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0101', stagename: 'x' }, school);
    expect(wrongApp.errorCode).toBe(ErrorCode.validation);
    const foreignForm = await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0201', stagename: 'x', formcodes: ['TSTA', 'TSTH'] }, school);
    expect(foreignForm.errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0201', stagename: '' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0201', stagename: 'x', extra: 1 }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0201', stagename: 'a\u0000b' }, school)).errorCode).toBe(ErrorCode.validation);
    const admin = (await s.login('admin')).token;
    expect((await s.call('as.m.app.exam.insertExamStage', { musercode: 'NOSUCH', appid: '000000002', categoryid: 'C0201', stagename: 'x' }, admin)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.muser.addAppsAndStages', { musercode: 'NOSUCH', appids: ['000000002'] }, admin)).errorCode).toBe(ErrorCode.notFound);
    expect([await rows(examStage), await rows(examStageForm)]).toEqual(before);
  });

  it('refuses callers without code 00029 and a staff account without it', async () => {
    const before = await rows(examStage);
    expect((await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0201', stagename: 'x' }, teacher)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.app.exam.getExamStageList', {}, bureau)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.app.exam.getExamStageListGroupByAppidCategoryid', {}, bureau)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.app.exam.getExamStageForms', { stagecode: 'x' }, bureau)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.exam.getExamForms', { appid: '000000002' }, bureau)).errorCode).toBe(ErrorCode.permissionDenied);
    for (const name of ['as.m.app.exam.updateExamStage', 'as.m.app.exam.deleteExamStage', 'as.m.app.exam.updateExamStageForms', 'as.m.app.exam.deleteExamStageForms'] as const) {
      expect((await s.call(name, { stagecode: 'x', formcodes: ['TSTA'] }, teacher)).errorCode).toBe(ErrorCode.permissionDenied);
    }
    expect(await rows(examStage)).toBe(before);
  });

  it('updates, re-forms and deletes a stage; another institution’s stage is not found', async () => {
    const { stagecode } = (await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0203', stagename: '高一', formcodes: ['TSTA'] }, school)).data;
    expect((await s.call('as.m.app.exam.updateExamStage', { stagecode, stagename: '高一上学期', categoryid: 'C0204', sort: 3 }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.app.exam.updateExamStage', { stagecode, categoryid: 'C0101' }, school)).errorCode).toBe(ErrorCode.validation);
    const [row] = (await s.call('as.m.app.exam.getExamStageList', { stagename: '高一上' }, school)).data.rows;
    expect(row).toMatchObject({ stagename: '高一上学期', categoryid: 'C0204', sort: 3 });
    expect((await s.call('as.m.app.exam.updateExamStageForms', { stagecode, formcodes: ['TSTB', 'TSTA'] }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.app.exam.updateExamStageForms', { stagecode, formcodes: ['TSTH'] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.app.exam.deleteExamStageForms', { stagecode, formcodes: ['TSTH'] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.app.exam.deleteExamStageForms', { stagecode, formcodes: ['TSTB'] }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.app.exam.getExamStageForms', { stagecode }, school)).data.map((f: { formcode: string }) => f.formcode)).toEqual(['TSTA']);

    // The provider makes a stage for the hospital; the school cannot see or touch it.
    const other = (await s.call('as.m.app.exam.insertExamStage', { musercode: 'I0002', appid: '000000001', categoryid: 'C0101', stagename: '孕早期', formcodes: ['TSTH'] }, provider)).data.stagecode;
    expect((await s.call('as.m.app.exam.insertExamStage', { musercode: 'I0002', appid: '000000001', categoryid: 'C0101', stagename: 'x' }, school)).errorCode).toBe(ErrorCode.notFound);
    for (const name of ['as.m.app.exam.getExamStageForms', 'as.m.app.exam.updateExamStage', 'as.m.app.exam.deleteExamStage'] as const) {
      expect((await s.call(name, { stagecode: other }, school)).errorCode).toBe(ErrorCode.notFound);
    }
    expect((await s.call('as.m.app.exam.updateExamStageForms', { stagecode: other, formcodes: [] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.app.exam.deleteExamStageForms', { stagecode: other, formcodes: ['TSTH'] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.getExamForms', { stagecode: other }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.app.exam.getExamStageList', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);

    expect((await s.call('as.m.app.exam.deleteExamStage', { stagecode }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.app.exam.getExamStageForms', { stagecode }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('forms of an app: built-in and own, never another institution’s', async () => {
    const forms = (await s.call('as.m.exam.getExamForms', { appid: '000000002' }, school)).data.map((f: { formcode: string }) => f.formcode);
    expect(forms).toEqual(expect.arrayContaining(['TSTA', 'TSTB']));
    expect(forms).not.toContain('TSTH');
    expect((await s.call('as.m.exam.getExamForms', { appid: '000000002', stagecode: 'x' }, school)).errorCode).toBe(ErrorCode.validation);
  });

  it('gives an institution apps and the provider’s stages; only the provider may', async () => {
    const { stagecode } = (await s.call('as.m.app.exam.insertExamStage', { appid: '000000001', categoryid: 'C0102', stagename: '产后42天', formcodes: ['TSTA'] }, provider)).data;
    const before = [await rows(muserApp), await rows(muserStage)];
    expect((await s.call('as.m.muser.addAppsAndStages', { musercode: 'I0001', appids: ['000000001'], stagecodes: [stagecode] }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.muser.addAppsAndStages', { musercode: 'I0004', appids: ['000000001'] }, provider)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.muser.addAppsAndStages', { musercode: 'I0001', appids: ['000000005'] }, provider)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await s.call('as.m.muser.addAppsAndStages', { musercode: 'I0001', appids: ['000000001'], stagecodes: [stagecode, 'NOPE'] }, provider)).errorCode).toBe(ErrorCode.notFound);
    expect([await rows(muserApp), await rows(muserStage)]).toEqual(before);

    expect((await s.call('as.m.muser.addAppsAndStages', { musercode: 'I0001', appids: ['000000001'], stagecodes: [stagecode] }, provider)).errorCode).toBe(0);
    expect((await s.call('as.m.muser.addAppsAndStages', { musercode: 'I0001', appids: ['000000001'], stagecodes: [stagecode] }, provider)).errorCode).toBe(0);
    const apps = await s.call('as.m.app.muser.getMUserAppList', { musercode: 'I0001' }, school);
    expect(apps.data.map((a: { appid: string }) => a.appid)).toEqual(['000000001', '000000002']);
    const given = (await s.call('as.m.app.exam.getExamStageList', { appid: '000000001' }, school)).data.rows.find((r: { stagecode: string }) => r.stagecode === stagecode);
    expect(given).toMatchObject({ musercode: 'P0001', editable: false });
    expect((await s.call('as.m.app.exam.getExamStageForms', { stagecode }, school)).data).toHaveLength(1);
    expect((await s.call('as.m.app.exam.updateExamStage', { stagecode, stagename: 'mine now' }, school)).errorCode).toBe(ErrorCode.notFound);
  });
});
