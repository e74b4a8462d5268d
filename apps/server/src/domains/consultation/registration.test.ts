import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { auditLog } from '../audit/tables.js';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { changedTables, fingerprint } from '../../test/sweep/fingerprint.js';
import { SUBMISSIONS_PER_ADDRESS_PER_HOUR } from './respondent.js';
import { registration } from './tables.js';

/** A full answer sheet of the built-in consultation request form (REG_CONSULT). */
const GOOD = [
  { no: 1, value: [1, 4] },
  { no: 2, value: '最近总是睡不好' },
  { no: 3, value: 1 },
  { no: 4, value: 3 },
  { no: 5, value: 1 },
];

describe.each(engines())('consultation registration on %s', (engine) => {
  let s: TestServer;
  let school: string, hospital: string, provider: string;
  let entrytoken: string;
  let ip = 0;
  /** Each respondent call from its own address, so the per-address limits only bite where a test wants it. */
  const nextIp = () => ({ 'x-test-ip': `10.7.0.${++ip}` });
  const submit = (body: Record<string, unknown>, headers = nextIp()) =>
    s.call(
      'as.c.registration.submit',
      { entrytoken, formcode: 'REG_CONSULT', realname: '来访者小林', phone: '13800001111', answers: GOOD, ...body },
      undefined,
      headers,
    );
  const list = (token: string, filters: Record<string, unknown> = {}) =>
    s.call('as.m.registration.getRegistrationPage', { page: 1, pageSize: 50, ...filters }, token);

  beforeAll(async () => {
    s = await startTestServer(engine);
    const provider0 = (await s.login('provider')).token;
    const made = await s.call(
      'as.m.user.createMUserClient',
      { musercode: 'I0001', title: '阳光中学心理中心', appids: ['000000002'], showresult: 1, hotline: '0571-12345678' },
      provider0,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
  });
  afterAll(() => s?.close());
  beforeEach(async () => {
    [school, hospital, provider] = await Promise.all(['school', 'hospital', 'provider'].map(async (u) => (await s.login(u)).token));
  });

  it('the demo has registrations in several states, newest first, only the institution’s own, phones masked', async () => {
    const page = await list(school);
    expect(page.errorCode, page.errorMsg).toBe(0);
    expect(page.data.total).toBeGreaterThanOrEqual(5);
    const rows = page.data.rows as { musercode: string; createdat: string; phone: string; state: string; source: string }[];
    expect(new Set(rows.map((r) => r.musercode))).toEqual(new Set(['I0001']));
    expect([...rows].sort((a, b) => b.createdat.localeCompare(a.createdat)).map((r) => r.createdat)).toEqual(rows.map((r) => r.createdat));
    expect(new Set(rows.map((r) => r.state))).toEqual(new Set(['new', 'inprogress', 'closed']));
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(['respondent', 'staff']));
    for (const r of rows.filter((x) => x.phone)) expect(r.phone).toMatch(/^\d{3}\*{4}\d{4}$/);
    // The provider sees both of its institutions'.
    const both = await list(provider);
    expect(new Set((both.data.rows as { musercode: string }[]).map((r) => r.musercode))).toEqual(new Set(['I0001', 'I0002']));
  });

  it('a person requests a consultation through the QR entry; staff read it in words; a bad sheet stores nothing', async () => {
    const form = await s.call('as.c.registration.getForm', { entrytoken }, undefined, nextIp());
    expect(form.errorCode, form.errorMsg).toBe(0);
    expect(form.data).toMatchObject({
      insname: '滨江第一中学',
      hotline: '0571-12345678',
      form: { formcode: 'REG_CONSULT', formtype: '03' },
    });
    expect(form.data.form.questions).toHaveLength(5);

    // Bad input: a required question missing, a wrong option, a wrong form; each refused in the caller's language.
    const before = await fingerprint(s.database.db);
    const missing = await submit({ answers: GOOD.filter((a) => a.no !== 3) });
    expect(missing.errorCode).toBe(ErrorCode.validation);
    expect(missing.errorMsg).toContain('第3题必填');
    const en = await s.call(
      'as.c.registration.submit',
      { entrytoken, formcode: 'REG_CONSULT', realname: 'Lin', phone: '13800001111', answers: [{ no: 3, value: 9 }] },
      undefined,
      { ...nextIp(), 'accept-language': 'en-US' },
    );
    expect(en.errorCode).toBe(ErrorCode.validation);
    expect(en.errorMsg).toMatch(/question 3 must be an option number 1–3/);
    expect(en.errorMsg).toMatch(/question 1 is required/);
    expect((await submit({ answers: [] })).errorCode).toBe(ErrorCode.validation);
    expect((await submit({ formcode: 'PHQ9' })).errorCode).toBe(ErrorCode.notFound);
    expect((await submit({ phone: '12345' })).errorCode).toBe(ErrorCode.validation);
    expect((await submit({ entrytoken: 'x'.repeat(43) })).errorCode).toBe(ErrorCode.notFound);
    expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);

    const ok = await submit({});
    expect(ok.errorCode, ok.errorMsg).toBe(0);
    expect(ok.data.hotline).toBe('0571-12345678');
    const regid = ok.data.regid as string;

    const found = await list(school, { realname: '小林', state: 'new' });
    expect(found.data.rows).toEqual([
      expect.objectContaining({
        regid,
        cusercode: '',
        realname: '来访者小林',
        phone: '138****1111',
        source: 'respondent',
        formcode: 'REG_CONSULT',
        version: 1,
        state: 'new',
      }),
    ]);

    const detail = await s.call('as.m.registration.getRegistration', { regid }, school);
    expect(detail.errorCode, detail.errorMsg).toBe(0);
    expect(detail.data.phone).toBe('13800001111');
    expect(detail.data.answers.map((a: { answer: string }) => a.answer)).toEqual([
      '情绪困扰（焦虑、低落等）、睡眠问题',
      '最近总是睡不好',
      '尽快（今天）',
      '工作日晚上',
      '电话',
    ]);
    const audits = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'as.m.registration.getRegistration'));
    expect(audits.map((a) => JSON.stringify(a.detail))).toEqual([expect.stringContaining(regid)]);

    // Another institution's staff: not found, and not in their list.
    expect((await s.call('as.m.registration.getRegistration', { regid }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.registration.updateRegistrationState', { regid, state: 'closed' }, hospital)).errorCode).toBe(
      ErrorCode.notFound,
    );
    expect((await list(hospital)).data.rows.some((r: { regid: string }) => r.regid === regid)).toBe(false);
    expect((await list(hospital, { musercode: 'I0001' })).errorCode).toBe(ErrorCode.notFound);
  });

  it('staff fill in for a person in scope on a usable type-03 form; checked like the respondent’s', async () => {
    const forms = await s.call('as.m.registration.getRegistrationForms', {}, school);
    expect(forms.data).toEqual([expect.objectContaining({ formcode: 'REG_CONSULT', builtin: true })]);
    const def = await s.call('as.m.registration.getRegistrationForm', { formcode: 'REG_CONSULT' }, school);
    expect(def.data.questions[0].options).toHaveLength(6);
    // A readable scale that is not a registration form is refused as bad input.
    expect((await s.call('as.m.registration.getRegistrationForm', { formcode: 'PHQ9' }, school)).errorCode).toBe(ErrorCode.validation);

    const person = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname: '登记学生', gender: '01' }, school);
    const cusercode = person.data.cusercode as string;
    const bad = await s.call(
      'as.m.registration.insertRegistration',
      {
        cusercode,
        formcode: 'REG_CONSULT',
        answers: [
          { no: 1, value: [1] },
          { no: 3, value: 1 },
          { no: 4, value: 'soon' },
          { no: 5, value: 1 },
        ],
      },
      school,
    );
    expect(bad.errorCode).toBe(ErrorCode.validation);
    // A readable scale that is no registration form: bad input, like the form read above.
    expect((await s.call('as.m.registration.insertRegistration', { cusercode, formcode: 'PHQ9', answers: GOOD }, school)).errorCode).toBe(
      ErrorCode.validation,
    );
    // A person of another institution is not found.
    expect(
      (await s.call('as.m.registration.insertRegistration', { cusercode, formcode: 'REG_CONSULT', answers: GOOD }, hospital)).errorCode,
    ).toBe(ErrorCode.notFound);

    const made = await s.call('as.m.registration.insertRegistration', { cusercode, formcode: 'REG_CONSULT', answers: GOOD }, school);
    expect(made.errorCode, made.errorMsg).toBe(0);
    const row = (await list(school, { realname: '登记学生' })).data.rows[0];
    expect(row).toMatchObject({
      regid: made.data.regid,
      cusercode,
      realname: '登记学生',
      source: 'staff',
      createdby: 'I0001',
      state: 'new',
    });

    // State changes.
    expect((await s.call('as.m.registration.updateRegistrationState', { regid: row.regid, state: 'inprogress' }, school)).errorCode).toBe(
      0,
    );
    expect((await list(school, { realname: '登记学生', state: 'inprogress' })).data.total).toBe(1);
    expect((await s.call('as.m.registration.updateRegistrationState', { regid: row.regid, state: 'case' }, school)).errorCode).toBe(
      ErrorCode.validation,
    );
  });

  it('turns a registration into a case: a respondent registration first needs a person of its institution; twice is a conflict', async () => {
    const regid = (await submit({ realname: '转个案' })).data.regid as string;
    const own = (await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname: '转个案', gender: '02' }, school)).data
      .cusercode as string;
    const foreign = (await s.call('as.m.cuser.insertCUser', { appid: '000000001', realname: '别院的人', gender: '02' }, hospital)).data
      .cusercode as string;

    expect((await s.call('as.m.registration.turnIntoCase', { regid }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.registration.turnIntoCase', { regid, cusercode: foreign }, school)).errorCode).toBe(ErrorCode.notFound);
    // The provider sees both institutions, but a registration matches only a person of its own.
    expect((await s.call('as.m.registration.turnIntoCase', { regid, cusercode: foreign }, provider)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.registration.turnIntoCase', { regid, cusercode: own }, hospital)).errorCode).toBe(ErrorCode.notFound);

    const turned = await s.call('as.m.registration.turnIntoCase', { regid, cusercode: own }, school);
    expect(turned.errorCode, turned.errorMsg).toBe(0);
    const caseid = turned.data.caseid as string;
    expect(caseid).toBeTruthy();
    const detail = await s.call('as.m.registration.getRegistration', { regid }, school);
    expect(detail.data).toMatchObject({ state: 'case', caseid, cusercode: own });
    expect((await s.call('as.m.registration.turnIntoCase', { regid }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.registration.updateRegistrationState', { regid, state: 'closed' }, school)).errorCode).toBe(
      ErrorCode.conflict,
    );

    // A second registration of the same person joins the person's open case.
    const again = await s.call('as.m.registration.insertRegistration', { cusercode: own, formcode: 'REG_CONSULT', answers: GOOD }, school);
    const joined = await s.call('as.m.registration.turnIntoCase', { regid: again.data.regid }, school);
    expect(joined.errorCode, joined.errorMsg).toBe(0);
    expect(joined.data.caseid).toBe(caseid);
  });

  it('limits QR registrations per address: bad entries like the code entry, and a cap on successful ones', async () => {
    const here = { 'x-test-ip': '10.8.8.8' };
    for (let i = 0; i < SUBMISSIONS_PER_ADDRESS_PER_HOUR; i++) expect((await submit({}, here)).errorCode).toBe(0);
    const capped = await submit({}, here);
    expect(capped.errorCode).toBe(ErrorCode.rateLimited);
    s.clock.advance(3600_000 + 1);
    expect((await submit({}, here)).errorCode).toBe(0);

    const guesser = { 'x-test-ip': '10.8.8.9' };
    for (let i = 0; i < 10; i++)
      expect((await s.call('as.c.registration.getForm', { entrytoken: `${'y'.repeat(40)}${i}` }, undefined, guesser)).errorCode).toBe(
        ErrorCode.notFound,
      );
    expect((await s.call('as.c.registration.getForm', { entrytoken }, undefined, guesser)).errorCode).toBe(ErrorCode.rateLimited);
  });

  // Issue 27 item 14: 60 parallel registrations stored 22 against the cap of 20 (count, then insert).
  it('the per-address cap holds under 60 parallel registrations', async () => {
    // Its own server, with the default limits: sixty entries in flight from one address are let through (CODE_ENTRIES_IN_FLIGHT_PER_ADDRESS).
    const p = await startTestServer(engine);
    try {
      const provider0 = (await p.login('provider')).token;
      const made = await p.call('as.m.user.createMUserClient', { musercode: 'I0001', title: '阳光中学心理中心', appids: ['000000002'] }, provider0);
      const token = String(made.data.qrcodeurl).split('/r/')[1]!;
      const body = { entrytoken: token, formcode: 'REG_CONSULT', realname: '来访者', phone: '13800001111', answers: GOOD };
      const answers = await Promise.all(Array.from({ length: 60 }, () => p.call('as.c.registration.submit', body, undefined, { 'x-test-ip': '10.8.9.1' })));
      expect(answers.filter((a) => a.errorCode === 0)).toHaveLength(SUBMISSIONS_PER_ADDRESS_PER_HOUR);
      expect(answers.filter((a) => a.errorCode === ErrorCode.rateLimited)).toHaveLength(60 - SUBMISSIONS_PER_ADDRESS_PER_HOUR);
      const stored = await p.database.db.select({ regid: registration.regid }).from(registration).where(eq(registration.ip, '10.8.9.1'));
      expect(stored).toHaveLength(SUBMISSIONS_PER_ADDRESS_PER_HOUR);
    } finally {
      await p.close();
    }
  });
});
