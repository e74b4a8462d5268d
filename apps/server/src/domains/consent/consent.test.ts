import ExcelJS from 'exceljs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { TEST_SIGNATURE } from '../../test/consent.js';
import { muserPermission } from '../accounts/tables.js';
import { assessment } from '../assessments/tables.js';
import { storedFile } from '../files/tables.js';
import { testConfig } from '../../config.js';
import { storageOf } from '../files/index.js';
import { eraseConsentIdentity } from './person.js';
import { minorBy, underFourteen } from './state.js';
import { consentRecord } from './tables.js';
import { auditLog } from '../audit/tables.js';

const gad7 = (option = 1) => Array.from({ length: 7 }, (_, i) => ({ no: i + 1, option }));

describe('under 14', () => {
  it('by birth date on the day, the fourteenth birthday counting as 14', () => {
    expect(underFourteen('2012-11-21', '2026-11-21')).toBe(false);
    expect(underFourteen('2012-11-22', '2026-11-21')).toBe(true);
    expect(underFourteen('2000-02-29', '2014-02-28')).toBe(true);
    // A birth date decides over a grade; without one, a primary or junior-middle grade (初三 is rank 9), not senior.
    expect(minorBy('2000-01-01', '五年级', '2026-11-21')).toBe('');
    expect(minorBy(null, '初三', '2026-11-21')).toBe('grade');
    expect(minorBy(null, '高一', '2026-11-21')).toBe('');
    expect(minorBy(null, undefined, '2026-11-21')).toBe('');
  });
});

describe.each(engines())('consent on %s', (engine) => {
  let s: TestServer;
  let school: string, hospital: string, provider: string, provider2: string;
  let plan: string;
  let ip = 0;
  const h = () => ({ 'x-test-ip': `10.30.0.${++ip}` });
  const ok = async <T = any>(p: Promise<{ errorCode: number; errorMsg: string; data: unknown }>): Promise<T> => {
    const res = await p;
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data as T;
  };
  const person = async (body: Record<string, unknown>) => (await ok<{ cusercode: string }>(s.call('as.m.cuser.insertCUser', { appid: '000000002', gender: '02', ...body }, school))).cusercode;
  /** Gives the plan to a person and opens it on the phone: the session and its token. */
  const open = async (cusercode: string) => {
    const { assesscode } = await ok(s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan }, school));
    return ok(s.call('as.c.exam.start', { assesscode }, undefined, h()));
  };
  const step = (token: string) => s.call('as.c.exam.getForm', { formcode: 'GAD7' }, token);
  const standing = async (cusercode: string, token = school) => ok(s.call('as.m.consent.getPersonConsent', { cusercode }, token));
  const team = async (grade: string, members: [string, string][]) => {
    const { teamid } = await ok(s.call('as.m.assess.insertAssessTeam', { kind: 'class', school: '滨江第一中学', year: '2026', term: '第一学期', grade, classname: `${++ip}班`, deptname: '' }, school));
    for (const [studentno, cusercode] of members) await ok(s.call('as.m.assess.insertAssessTeamCUser', { teamid, studentno, cusercode }, school));
    return teamid as string;
  };

  beforeAll(async () => {
    s = await startTestServer(engine);
    // The hospital (a sibling of the school) may manage teams, so its refusals there are about scope.
    await s.database.db.insert(muserPermission).values({ musercode: 'I0002', code: '00042' });
    [school, hospital, provider, provider2] = await Promise.all(['school', 'hospital', 'provider', 'provider2'].map(async (u) => (await s.login(u)).token));
    plan = (await ok(s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '同意测试', formcodes: ['GAD7'] }, school))).plancode;
  });
  afterAll(() => s?.close());

  it('the notice is versioned per institution: an unchanged text keeps its version; another institution sees none of it', async () => {
    const before = await ok(s.call('as.m.consent.getNotice', { musercode: 'I0001' }, provider));
    expect(before).toMatchObject({ musercode: 'I0001', isdefault: false });
    const zh = '本校处理测评答案用于心理健康服务，仅心理中心老师可见，可随时撤回同意。';
    const en = 'The school processes answers for mental-health care only; counsellors alone see them; consent may be withdrawn.';
    // The provider edits its institutions' notices (with their entry settings); the school itself may not.
    expect((await s.call('as.m.consent.saveNotice', { musercode: 'I0001', zh, en }, school)).errorCode).toBe(ErrorCode.permissionDenied);
    const { version } = await ok<{ version: number }>(s.call('as.m.consent.saveNotice', { musercode: 'I0001', zh, en }, provider));
    expect(version).toBe(before.version + 1);
    expect(await ok(s.call('as.m.consent.saveNotice', { musercode: 'I0001', zh, en }, provider))).toEqual({ version });
    expect(await ok(s.call('as.m.consent.getNotice', { musercode: 'I0001' }, provider))).toMatchObject({ version, zh, en });
    // Tenant isolation: another provider neither reads nor writes it.
    expect((await s.call('as.m.consent.getNotice', { musercode: 'I0001' }, provider2)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.consent.saveNotice', { musercode: 'I0001', zh: zh + '改', en }, provider2)).errorCode).toBe(ErrorCode.notFound);
    expect((await ok(s.call('as.m.consent.getNotice', { musercode: 'I0001' }, provider))).version).toBe(version);
    // Too short a notice is refused in the caller's language.
    const short = await s.call('as.m.consent.saveNotice', { musercode: 'I0001', zh: '短', en: 'short' }, provider);
    expect(short.errorCode).toBe(ErrorCode.validation);
  });

  it('an adult agrees once per notice version; every step is refused (422) before; a changed notice is asked again', async () => {
    const cusercode = await person({ realname: '成年人', birthdate: '1990-05-01' });
    const first = await open(cusercode);
    expect(first.privacy).toMatchObject({ agreed: false, minor: false, guardian: false, withdrawn: false });
    expect(first.privacy.notice.zh.length).toBeGreaterThan(10);
    const refused = await step(first.token);
    expect(refused.status).toBe(422);
    expect(refused.errorMsg).toContain('告知');
    expect((await s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, first.token)).status).toBe(422);
    await ok(s.call('as.c.exam.agreeNotice', { version: first.privacy.version }, first.token));
    await ok(s.call('as.c.exam.agreeNotice', { version: first.privacy.version }, first.token));
    await ok(step(first.token));
    // Recorded once, with what was shown.
    const rec = await standing(cusercode);
    expect(rec.state).toBe('given');
    expect(rec.records).toHaveLength(1);
    expect(rec.records[0]).toMatchObject({ kind: 'notice', via: 'phone', noticeversion: first.privacy.version, assesscode: first.assesscode, noticehash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // A second assessment of the same notice does not ask again.
    const second = await open(cusercode);
    expect(second.privacy.agreed).toBe(true);
    await ok(step(second.token));
    // A new notice version: asked again; agreeing to the old one is a conflict.
    const v = (await ok(s.call('as.m.consent.saveNotice', { musercode: 'I0001', zh: `${first.privacy.notice.zh}（修订）`, en: first.privacy.notice.en }, provider))).version;
    expect((await ok(s.call('as.c.exam.getSession', {}, second.token))).privacy).toMatchObject({ agreed: false, version: v });
    expect((await step(second.token)).status).toBe(422);
    expect((await s.call('as.c.exam.agreeNotice', { version: v - 1 }, second.token)).errorCode).toBe(ErrorCode.conflict);
    await ok(s.call('as.c.exam.agreeNotice', { version: v }, second.token));
    await ok(step(second.token));
  });

  it('under 14 by birth date: refused until a guardian consents on the phone (name, relation, signature stored as a file)', async () => {
    // The test clock is 2026-11-21: born 2013 is 13.
    const cusercode = await person({ realname: '小明', birthdate: '2013-03-01' });
    const { token, privacy } = await open(cusercode);
    expect(privacy).toMatchObject({ minor: true, guardian: false });
    await ok(s.call('as.c.exam.agreeNotice', { version: privacy.version }, token));
    const refused = await step(token);
    expect(refused.status).toBe(422);
    expect(refused.errorMsg).toContain('监护人');
    expect((await standing(cusercode)).state).toBe('guardianmissing');
    // A bad signature stores nothing.
    const files = async () => Number((await s.database.db.select({ n: count() }).from(storedFile).where(eq(storedFile.musercode, 'I0001')))[0]!.n);
    const before = await files();
    const bad = await s.call('as.c.exam.giveGuardianConsent', { version: privacy.version, guardianname: '王芳', relation: 'mother', signature: 'aGVsbG8=' }, token);
    expect(bad.errorCode).toBe(ErrorCode.validation);
    expect(await files()).toBe(before);
    await ok(s.call('as.c.exam.giveGuardianConsent', { version: privacy.version, guardianname: '王芳', relation: 'mother', signature: TEST_SIGNATURE }, token));
    expect(await files()).toBe(before + 1);
    await ok(step(token));
    const rec = await standing(cusercode);
    expect(rec).toMatchObject({ state: 'given', minor: true, minorby: 'birthdate' });
    expect(rec.records.find((r: { kind: string }) => r.kind === 'guardian')).toMatchObject({ via: 'phone', guardianname: '王芳', relation: 'mother', signatureurl: expect.stringMatching(/^\/files\//) });
    // Erasure removes the guardian's identity (name and signature file); what was agreed to and when stays.
    const tx = s.database.db;
    const erased = await tx.transaction((t) => eraseConsentIdentity(t, cusercode, storageOf(testConfig())));
    expect(erased).toEqual({ signatures: 1 });
    expect(await files()).toBe(before);
    const after = await standing(cusercode);
    expect(after.state).toBe('given');
    expect(after.records.find((r: { kind: string }) => r.kind === 'guardian')).toMatchObject({ guardianname: null, signatureurl: null, relation: 'mother', noticeversion: privacy.version });
    // An adult needs no guardian.
    const adult = await open(await person({ realname: '成年乙', birthdate: '1990-01-01' }));
    expect((await s.call('as.c.exam.giveGuardianConsent', { version: adult.privacy.version, guardianname: '某', relation: 'other', signature: TEST_SIGNATURE }, adult.token)).status).toBe(422);
  });

  it('under 14 by grade (no birth date): a primary or junior-middle class; a class consent sheet is all or nothing', async () => {
    const a = await person({ realname: '张一' });
    const b = await person({ realname: '张二' });
    const c = await person({ realname: '张三' });
    const teamid = await team('五年级', [
      ['01', a],
      ['02', b],
      ['03', c],
    ]);
    const { token, privacy } = await open(a);
    expect(privacy).toMatchObject({ minor: true, guardian: false });
    expect((await standing(a)).minorby).toBe('grade');
    await ok(s.call('as.c.exam.agreeNotice', { version: privacy.version }, token));
    expect((await step(token)).status).toBe(422);

    // The class's sheet lists the roster; the teacher marks it and uploads it.
    const res = await s.raw('as.m.consent.getConsentSheet', JSON.stringify({ teamid }), { token: school });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect([2, 3, 4].map((r) => [ws.getCell(r, 1).value, ws.getCell(r, 2).value])).toEqual([
      ['01', '张一'],
      ['02', '张二'],
      ['03', '张三'],
    ]);
    ws.getCell(2, 3).value = '是';
    ws.getCell(3, 3).value = '否';
    ws.getCell(4, 3).value = '是';
    const good = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    // A bad row (a number not on the roster, a name that does not match, a mark that is neither): nothing recorded.
    ws.getCell(4, 2).value = '张叁';
    ws.addRow(['99', '外人', '是']);
    ws.addRow(['01', '张一', '也许']);
    const bad = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    const refused = await s.call('as.m.consent.importConsentSheet', { teamid, filename: 'bad.xlsx', content: bad }, school);
    expect(refused.errorCode).toBe(ErrorCode.badImportFile);
    expect(refused.errorMsg).toContain('第4行');
    expect(refused.errorMsg).toContain('第5行');
    expect(refused.errorMsg).toContain('第6行');
    expect(await s.database.db.select().from(consentRecord).where(eq(consentRecord.teamid, teamid))).toHaveLength(0);
    // Another institution cannot record for the class.
    expect((await s.call('as.m.consent.importConsentSheet', { teamid, filename: 'x.xlsx', content: good }, hospital)).errorCode).toBe(ErrorCode.notFound);

    expect(await ok(s.call('as.m.consent.importConsentSheet', { teamid, filename: 'good.xlsx', content: good }, school))).toEqual({ total: 3, consented: 2, recorded: 2, notconsented: 1 });
    // Once per roster: uploading it again records nobody twice.
    expect(await ok(s.call('as.m.consent.importConsentSheet', { teamid, filename: 'good.xlsx', content: good }, school))).toMatchObject({ recorded: 0 });
    await ok(step(token));
    expect((await standing(a)).records.find((r: { kind: string }) => r.kind === 'guardian')).toMatchObject({ via: 'sheet', teamname: expect.stringContaining('五年级') });
    expect((await standing(b)).state).toBe('guardianmissing');
    // A senior-middle class is not under 14.
    const d = await person({ realname: '高一生' });
    await team('高一', [['01', d]]);
    expect((await standing(d)).minor).toBe(false);
  });

  it('withdrawal stops every further step and is recorded; existing reports stay; other institutions cannot withdraw', async () => {
    const cusercode = await person({ realname: '撤回者', birthdate: '1985-01-01' });
    const { token, privacy } = await open(cusercode);
    await ok(s.call('as.c.exam.agreeNotice', { version: privacy.version }, token));
    await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, token));
    const later = await open(cusercode);
    expect((await s.call('as.m.consent.withdrawConsent', { cusercode, reason: '本人要求' }, hospital)).errorCode).toBe(ErrorCode.notFound);
    await ok(s.call('as.m.consent.withdrawConsent', { cusercode, reason: '本人要求', byguardian: false }, school));
    expect((await s.call('as.m.consent.withdrawConsent', { cusercode, reason: '再次' }, school)).errorCode).toBe(ErrorCode.conflict);
    const refused = await step(later.token);
    expect(refused.status).toBe(422);
    expect(refused.errorMsg).toContain('撤回');
    expect((await s.call('as.c.exam.agreeNotice', { version: privacy.version }, later.token)).status).toBe(422);
    expect((await ok(s.call('as.c.exam.getSession', {}, later.token))).privacy.withdrawn).toBe(true);
    const rec = await standing(cusercode);
    expect(rec.state).toBe('withdrawn');
    expect(rec.records.find((r: { kind: string }) => r.kind === 'withdrawal')).toMatchObject({ kind: 'withdrawal', via: 'staff', reason: '本人要求', recordedby: 'I0001', recordedbyname: '滨江第一中学' });
    expect(await s.database.db.select().from(assessment).where(eq(assessment.cusercode, cusercode))).toHaveLength(1);
    // Tenant isolation of the records.
    expect((await s.call('as.m.consent.getPersonConsent', { cusercode }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await standing(cusercode, provider)).state).toBe('withdrawn');
  });

  it('a withdrawn person is given no code: alone (zh and en), or among many (named, nothing given)', async () => {
    const gone = await person({ realname: '已撤回甲', birthdate: '1986-01-01' });
    const other = await person({ realname: '未撤回乙', birthdate: '1986-01-02' });
    await ok(s.call('as.m.consent.withdrawConsent', { cusercode: gone, reason: '本人要求', byguardian: false }, school));
    const one = await s.call('as.m.user.insertCUserAssessCode', { cusercode: gone, plancode: plan }, school);
    expect(one.errorCode).toBe(ErrorCode.conflict);
    expect(one.errorMsg).toContain('已撤回');
    const en = await s.call('as.m.user.insertCUserAssessCode', { cusercode: gone, plancode: plan }, school, { 'accept-language': 'en-US' });
    expect(en.errorMsg).toContain('withdrawn consent');
    const many = await s.call('as.m.user.insertCUserAssessCodes', { cusercodes: [other, gone], plancode: plan }, school);
    expect(many.errorCode).toBe(ErrorCode.conflict);
    expect(many.errorMsg).toContain('已撤回甲');
    expect(many.errorMsg).not.toContain('未撤回乙');
    expect(await ok(s.call('as.m.cuser.getCUserPlan', { cusercode: other }, school))).toHaveLength(0);
  });

  it('consent may be renewed after a withdrawal (staff, why, audited): the notice and a guardian are asked again; a later withdrawal stands', async () => {
    const adult = await person({ realname: '重新同意甲', birthdate: '1987-01-01' });
    const first = await open(adult);
    await ok(s.call('as.c.exam.agreeNotice', { version: first.privacy.version }, first.token));
    const renew = (cusercode: string, token = school) => s.call('as.m.consent.renewConsent', { cusercode, reason: '本人书面重新同意' }, token);
    expect((await renew(adult)).errorCode).toBe(ErrorCode.conflict);
    await ok(s.call('as.m.consent.withdrawConsent', { cusercode: adult, reason: '本人要求', byguardian: false }, school));
    expect((await renew(adult, hospital)).errorCode).toBe(ErrorCode.notFound);
    await ok(renew(adult));
    expect((await renew(adult)).errorCode).toBe(ErrorCode.conflict);
    const rec = await standing(adult);
    expect(rec.state).toBe('pending');
    expect(rec.records.find((r: { kind: string }) => r.kind === 'renewal')).toMatchObject({ kind: 'renewal', via: 'staff', reason: '本人书面重新同意', recordedby: 'I0001' });
    const audited = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'as.m.consent.renewConsent'));
    expect(audited.filter((r) => r.result === 'ok').map((r) => r.detail)).toContainEqual(expect.objectContaining({ cusercode: adult }));
    // Asked the same notice version again, then answering goes on.
    const again = await open(adult);
    expect((await step(again.token)).status).toBe(422);
    await ok(s.call('as.c.exam.agreeNotice', { version: again.privacy.version }, again.token));
    await ok(step(again.token));
    expect((await standing(adult)).state).toBe('given');
    // A later withdrawal stands again, and refuses new codes.
    await ok(s.call('as.m.consent.withdrawConsent', { cusercode: adult, reason: '再次撤回', byguardian: false }, school));
    expect((await standing(adult)).state).toBe('withdrawn');
    expect((await s.call('as.m.user.insertCUserAssessCode', { cusercode: adult, plancode: plan }, school)).errorCode).toBe(ErrorCode.conflict);
    // A child under 14 needs a guardian again after a renewal.
    const child = await person({ realname: '重新同意乙', birthdate: '2014-05-01' });
    const c1 = await open(child);
    await ok(s.call('as.c.exam.giveGuardianConsent', { version: c1.privacy.version, guardianname: '李华', relation: 'father', signature: TEST_SIGNATURE }, c1.token));
    expect((await standing(child)).state).toBe('given');
    await ok(s.call('as.m.consent.withdrawConsent', { cusercode: child, reason: '监护人要求', byguardian: true }, school));
    await ok(renew(child));
    expect((await standing(child)).state).toBe('guardianmissing');
  });
});
