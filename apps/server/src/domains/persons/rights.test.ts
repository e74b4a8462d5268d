import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { consented, TEST_SIGNATURE } from '../../test/consent.js';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { job } from '../../kit/jobs/index.js';
import { auditLog } from '../audit/tables.js';
import { assessCode, assessment } from '../assessments/tables.js';
import { reportComment } from '../reports/tables.js';
import { statsCount, statsPeople, statsPerson, statsReport } from '../statistics/tables.js';
import { teamMember } from '../tasks/tables.js';
import { caseEvent, followUp, warnCase } from '../warnings/tables.js';
import { renderRecordHtml } from './record.js';
import { RETENTION_JOB } from './rights.js';
import { cuser } from './tables.js';
import { idNumber } from './test-roster.js';

const STUDENTS = '000000002';
const DAY = 86_400_000;
const phq = (scores: number[]) => scores.map((v, i) => ({ no: i + 1, option: v + 1 }));

/**
 * A person's rights over their record (issue 30 §5): the export, the erasure and the retention
 * job, on both databases.
 */
describe.each(engines())('person rights on %s', (engine) => {
  let s: TestServer;
  let school: string; // I0001
  let hospital: string; // I0002
  let plan: string;
  let ip = 0;
  let signins = 0;
  const signIn = async (u: string) => (await s.login(u, undefined, `10.8.${Math.floor(++signins / 200)}.${signins % 200}`)).token;
  beforeAll(async () => {
    s = await startTestServer(engine, { config: { chromiumPath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' } });
    school = await signIn('school');
    const res = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: STUDENTS, planname: '抑郁筛查', formcodes: ['PHQ9'] }, school);
    expect(res.errorCode, res.errorMsg).toBe(0);
    plan = res.data.plancode;
  });
  beforeEach(async () => {
    [school, hospital] = await Promise.all(['school', 'hospital'].map(signIn));
  });
  afterAll(() => s?.close());

  const db = () => s.database.db;
  const audits = (action: string) => db().select().from(auditLog).where(eq(auditLog.action, action));

  /** A student with every identifying field, a PHQ-9 report whose item 9 opens a critical case, a follow-up and a comment. */
  const seeded = async (realname: string, idSeq: number) => {
    const made = await s.call(
      'as.m.cuser.insertCUser',
      { appid: STUDENTS, realname, gender: '02', birthdate: '2010-03-15', phonenumber: '13812345678', idcard: idNumber('330108', '20100315', idSeq), archive: [{ no: 1, value: 2 }, { no: 5, value: '330108' }] },
      school,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    const cusercode = made.data.cusercode as string;
    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan }, school);
    expect(given.errorCode, given.errorMsg).toBe(0);
    const started = await s.call('as.c.exam.start', { assesscode: given.data.assesscode }, undefined, { 'x-test-ip': `10.9.1.${++ip}` });
    const token = await consented(s, started.data.token as string);
    expect((await s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, token)).errorCode).toBe(0);
    const sent = await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: phq([1, 1, 0, 0, 0, 0, 0, 0, 1]) }, token);
    expect(sent.errorCode, sent.errorMsg).toBe(0);
    const reportid = sent.data.reportid as string;
    // PHQ-9 has no fill-in question: the stored answers get one's text, as a form with one stores it.
    await db().execute(sql`update assessment set answers = answers || ${JSON.stringify([{ no: 99, text: `我是${realname}，电话13812345678` }])}::jsonb where assessid = ${reportid}`);
    expect((await s.call('as.m.exam.updateReport', { reportid, comment: `${realname}需要关注` }, school)).errorCode).toBe(0);
    const [c] = await db().select().from(warnCase).where(eq(warnCase.cusercode, cusercode));
    const follow = await s.call('as.m.warning.insertFollowUp', { caseid: c!.caseid, followdate: '2026-01-05', way: 'phone', content: `与${realname}的母亲通话`, risk: 2 }, school);
    expect(follow.errorCode, follow.errorMsg).toBe(0);
    return { cusercode, reportid, caseid: c!.caseid };
  };
  const download = (body: Record<string, unknown>, token: string) => s.raw('as.m.cuser.exportPersonRecord', JSON.stringify(body), { token });

  it('exports the whole record as JSON: every section, full identity, one audit row with the person as object', async () => {
    const p = await seeded('宋可心', 21);
    const before = (await audits('as.m.cuser.exportPersonRecord')).length;
    const res = await download({ cusercode: p.cusercode, format: 'json' }, school);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('+json');
    const record = JSON.parse(res.body);
    expect(record).toMatchObject({ format: 'xinli-person-record', version: 1, cusercode: p.cusercode });
    expect(Object.keys(record.sections)).toEqual(['profile', 'archive', 'reports', 'cases', 'consents']);
    expect(record.sections.consents.length).toBeGreaterThan(0);
    expect(record.sections.profile).toMatchObject({ realname: '宋可心', phonenumber: '13812345678', birthdate: '2010-03-15' });
    expect(record.sections.archive.length).toBeGreaterThan(0);
    const [report] = record.sections.reports;
    expect(report).toMatchObject({ reportid: p.reportid, formcode: 'PHQ9' });
    expect(report.answers.length).toBeGreaterThanOrEqual(9);
    expect(report.indicators.length).toBeGreaterThan(0);
    expect(report.comments[0].comment).toBe('宋可心需要关注');
    const [kase] = record.sections.cases;
    expect(kase.case.caseid).toBe(p.caseid);
    expect(kase.warnings.length).toBeGreaterThan(0);
    expect(kase.followups[0].content).toBe('与宋可心的母亲通话');
    // The printed record names states and ways in the reader's words, as the console and exports do.
    const en = renderRecordHtml(record, '滨江一中', 'en-US');
    expect(en).toContain('<td>Phone</td>');
    expect(en).toContain('>In follow-up<');
    expect(en).toContain('<td>New</td><td>In follow-up</td>');
    expect(en).not.toMatch(/<td>(phone|open)<\/td>/);
    // A case's timeline says what happened in words, not the event's code.
    expect(en).toContain('<td>New warning</td>');
    expect(en).not.toMatch(/<td>(state|followup|warning)<\/td>/);
    const zh = renderRecordHtml(record, '滨江一中', 'zh-CN');
    expect(zh).toContain('<td>电话</td>');
    // Consents too: their kind and how they were given in words, every field labelled, no internal ids.
    expect(en).toContain('<td>Agreed to the notice</td><td>On the phone</td>');
    expect(zh).toContain('<td>本人同意告知</td><td>手机端</td>');
    expect(en).toContain('<th>Notice version</th>');
    for (const raw of ['noticeversion', 'noticehash', 'consentid', 'signatureurl', '<td>notice</td>']) expect(en).not.toContain(raw);
    const rows = (await audits('as.m.cuser.exportPersonRecord')).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.detail).toMatchObject({ cusercode: p.cusercode, target: 'I0001', format: 'json' });
  });

  it('exports the record as a real PDF (pdfinfo: at least one page), audited', async () => {
    const p = await seeded('许安然', 22);
    const res = await download({ cusercode: p.cusercode, format: 'pdf' }, school);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-'));
    const file = path.join(dir, 'record.pdf');
    fs.writeFileSync(file, res.rawPayload);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
    expect(pages).toBeGreaterThanOrEqual(1);
    fs.rmSync(dir, { recursive: true });
    const [row] = (await audits('as.m.cuser.exportPersonRecord')).filter((r) => (r.detail as { cusercode?: string }).cusercode === p.cusercode);
    expect(row!.detail).toMatchObject({ format: 'pdf' });
  });

  it('another institution’s person is not found, for the export and the erasure, and nothing is audited as done', async () => {
    const p = await seeded('钱多多', 23);
    const before = (await audits('as.m.cuser.exportPersonRecord')).length;
    const res = await s.call('as.m.cuser.exportPersonRecord', { cusercode: p.cusercode, format: 'json' }, hospital);
    expect(res.errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.cuser.anonymiseCUser', { cusercode: p.cusercode }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await audits('as.m.cuser.exportPersonRecord')).filter((r) => r.result === 'ok').length).toBe(before);
    const [row] = await db().select().from(cuser).where(eq(cuser.cusercode, p.cusercode));
    expect(row!.anonymisedat).toBeNull();
  });

  /** Every statistics row, in a fixed order: the erasure must leave them as they were. */
  const statistics = async () => ({
    counts: await db().select().from(statsCount).orderBy(asc(statsCount.grain), asc(statsCount.period), asc(statsCount.musercode), asc(statsCount.appid), asc(statsCount.stagecode), asc(statsCount.gender), asc(statsCount.stripe)),
    reports: await db().select().from(statsReport).orderBy(asc(statsReport.assessid)),
    persons: await db().select().from(statsPerson).orderBy(asc(statsPerson.cusercode), asc(statsPerson.appid), asc(statsPerson.stagecode)),
    people: await db().select().from(statsPeople).orderBy(asc(statsPeople.musercode), asc(statsPeople.appid), asc(statsPeople.stagecode), asc(statsPeople.stripe)),
  });

  it('anonymises: every identifying field of the person’s rows is gone, statistics unchanged, refused a second time, audited', async () => {
    const p = await seeded('欧阳明月', 24);
    // In a class with a student number (class membership stays for grade statistics; the number goes).
    const team = await s.call('as.m.assess.insertAssessTeam', { kind: 'class', school: '滨江一中', year: '2026', term: '第一学期', grade: '初一', classname: '匿名班', deptname: '' }, school);
    expect(team.errorCode, team.errorMsg).toBe(0);
    const member = await s.call('as.m.assess.insertAssessTeamCUser', { teamid: team.data.teamid, studentno: '20260417', cusercode: p.cusercode }, school);
    expect(member.errorCode, member.errorMsg).toBe(0);
    const stats = await statistics();
    const res = await s.call('as.m.cuser.anonymiseCUser', { cusercode: p.cusercode }, school);
    expect(res.errorCode, res.errorMsg).toBe(0);

    const [row] = await db().select().from(cuser).where(eq(cuser.cusercode, p.cusercode));
    expect(row).toMatchObject({ realname: '已匿名', phonenumber: null, idcard: null, phonehash: null, idcardhash: null, birthdate: '2010-01-01', gender: '02', appid: STUDENTS, musercode: 'I0001' });
    expect(row!.anonymisedat).not.toBeNull();
    expect(row!.archive).toEqual([{ no: 1, value: 2 }]);
    // Scan every row that names the person: no name, phone, ID number, free text or signature is left.
    const rows = JSON.stringify([
      row,
      await db().select().from(assessment).where(eq(assessment.cusercode, p.cusercode)),
      await db().select().from(assessCode).where(eq(assessCode.cusercode, p.cusercode)),
      await db().select().from(reportComment).where(eq(reportComment.assessid, p.reportid)),
      await db().select().from(warnCase).where(eq(warnCase.cusercode, p.cusercode)),
      await db().select().from(caseEvent).where(eq(caseEvent.caseid, p.caseid)),
      await db().select().from(followUp).where(eq(followUp.cusercode, p.cusercode)),
      await db().select().from(teamMember).where(eq(teamMember.cusercode, p.cusercode)),
    ]);
    for (const gone of ['欧阳明月', '20260417', '13812345678', idNumber('330108', '20100315', 24), '2010-03-15', '330108', 'iVBORw0KGgo', '需要关注', '母亲通话']) expect(rows).not.toContain(gone);
    const [report] = await db().select().from(assessment).where(eq(assessment.cusercode, p.cusercode));
    expect((report!.answers as { no: number }[]).length).toBe(10);
    expect(await statistics()).toEqual(stats);
    const [membership] = await db().select().from(teamMember).where(eq(teamMember.cusercode, p.cusercode));
    expect(membership).toMatchObject({ teamid: team.data.teamid, studentno: `anon-${p.cusercode}` });

    const list = await s.call('as.m.cuser.getCUserPageList', { realname: '已匿名', pageSize: 200 }, school);
    expect(list.data.rows.map((r: { cusercode: string }) => r.cusercode)).toContain(p.cusercode);
    const again = await s.call('as.m.cuser.anonymiseCUser', { cusercode: p.cusercode }, school);
    expect(again.errorCode).toBe(ErrorCode.conflict);
    expect(again.errorMsg).toContain('已匿名');
    const edit = await s.call('as.m.cuser.updateCUser', { cusercode: p.cusercode, realname: '欧阳明月' }, school);
    expect(edit.errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.user.insertCUserAssessCode', { cusercode: p.cusercode, plancode: plan }, school)).errorCode).toBe(ErrorCode.conflict);
    const [still] = await db().select().from(cuser).where(eq(cuser.cusercode, p.cusercode));
    expect(still!.realname).toBe('已匿名');
    const done = (await audits('as.m.cuser.anonymiseCUser')).filter((r) => (r.detail as { cusercode?: string }).cusercode === p.cusercode);
    expect(done.map((r) => r.result)).toEqual(['ok']);
  });

  it('an anonymised person reads "Anonymised" in English lists, and every write about them is refused', async () => {
    const p = await seeded('司马青云', 25);
    expect((await s.call('as.m.cuser.anonymiseCUser', { cusercode: p.cusercode }, school)).errorCode).toBe(0);
    const en = { 'accept-language': 'en-US' };
    const named = (rows: { cusercode: string; realname: string }[]) => rows.find((r) => r.cusercode === p.cusercode)?.realname;
    expect(named((await s.call('as.m.exam.getCUserReportPageList', { pageSize: 200 }, school, en)).data.rows)).toBe('Anonymised');
    expect(named((await s.call('as.m.warning.getCasePageList', { pageSize: 200 }, school, en)).data.rows)).toBe('Anonymised');
    expect(named((await s.call('as.m.warning.getFollowUpPageList', { caseid: p.caseid, pageSize: 200 }, school, en)).data.rows)).toBe('Anonymised');
    expect(named((await s.call('as.m.exam.getCUserReportPageList', { pageSize: 200 }, school)).data.rows)).toBe('已匿名');

    const refused = [
      await s.call('as.m.warning.flagPerson', { cusercode: p.cusercode, level: 'attention', note: '再次关注' }, school),
      await s.call('as.m.warning.insertFollowUp', { caseid: p.caseid, followdate: '2026-01-06', way: 'phone', content: '再次通话', risk: 1 }, school),
      await s.call('as.m.warning.rescreenCase', { caseid: p.caseid, plancode: plan }, school),
      await s.call('as.m.exam.updateReport', { reportid: p.reportid, comment: '新的评语' }, school),
      await s.call(
        'as.m.registration.insertRegistration',
        { cusercode: p.cusercode, formcode: 'REG_CONSULT', answers: [{ no: 1, value: [1] }, { no: 2, value: '睡不好' }, { no: 3, value: 1 }, { no: 4, value: 3 }, { no: 5, value: 1 }] },
        school,
      ),
    ];
    expect(refused.map((r) => r.errorCode)).toEqual(refused.map(() => ErrorCode.conflict));
    const [c] = await db().select().from(warnCase).where(eq(warnCase.caseid, p.caseid));
    expect(await db().select().from(followUp).where(eq(followUp.cusercode, p.cusercode))).toHaveLength(1);
    expect(c!.state).not.toBe('closed');
  });

  it('the correction (edit) is audited with the fields changed, never their values', async () => {
    const p = await seeded('魏思远', 27);
    const edited = await s.call('as.m.cuser.updateCUser', { cusercode: p.cusercode, phonenumber: '13900001111' }, school);
    expect(edited.errorCode, edited.errorMsg).toBe(0);
    const [row] = (await audits('as.m.cuser.updateCUser')).filter((r) => (r.detail as { cusercode?: string }).cusercode === p.cusercode);
    expect(row!.detail).toMatchObject({ fields: ['phonenumber'] });
    expect(JSON.stringify(row!.detail)).not.toContain('13900001111');
  });

  it('retention: off by default (nobody erased); when set, the job anonymises only the inactive, audits it and runs again the next day', async () => {
    const old = await seeded('陈旧人', 26);
    const quiet = (await s.call('as.m.cuser.insertCUser', { appid: STUDENTS, realname: '常安静', gender: '01' }, school)).data.cusercode as string;
    s.clock.advance(400 * DAY);
    [school] = await Promise.all(['school'].map(signIn));
    const recent = (await s.call('as.m.cuser.insertCUser', { appid: STUDENTS, realname: '新来者', gender: '01' }, school)).data.cusercode as string;
    // Off: a run (queued by hand, as the lead's day would) anonymises nobody.
    const { enqueueRetention } = await import('./rights.js');
    await enqueueRetention(s.database.db, s.clock.now(), s.clock.now());
    await s.jobs.runDue();
    const anonymised = async () => new Set((await db().select({ c: cuser.cusercode }).from(cuser).where(sql`${cuser.anonymisedat} is not null`)).map((r) => r.c));
    const none = await anonymised();
    expect([old.cusercode, quiet, recent].filter((c) => none.has(c))).toEqual([]);

    expect((await s.call('as.m.cuser.updateRetention', { months: 12 }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.cuser.getRetention', {}, school)).data).toEqual({ musercode: 'I0001', months: 12 });
    // The first run is the next day's.
    await s.jobs.runDue();
    expect((await anonymised()).has(quiet)).toBe(false);
    s.clock.advance(DAY);
    await s.jobs.runDue();
    const after = await anonymised();
    expect(after.has(quiet)).toBe(true);
    expect(after.has(recent)).toBe(false);
    // Its case is open (someone still looks after them): kept until it is closed and quiet.
    expect(after.has(old.cusercode)).toBe(false);
    const [audit] = (await audits(RETENTION_JOB)).filter((r) => r.musercode === 'I0001');
    expect(audit!.detail).toMatchObject({ months: 12 });
    expect((audit!.detail as { cusercodes: string[] }).cusercodes).toContain(quiet);
    const next = await db().select().from(job).where(sql`${job.kind} = ${RETENTION_JOB} and ${job.state} = 'queued'`);
    expect(next.map((j) => j.runat.getTime())).toContain(Math.floor(s.clock.now().getTime() / DAY) * DAY + DAY);
    [school] = await Promise.all(['school'].map(signIn));
    expect((await s.call('as.m.cuser.updateRetention', { months: -1 }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.cuser.updateRetention', { months: 0 }, school)).errorCode).toBe(0);
  });
});
