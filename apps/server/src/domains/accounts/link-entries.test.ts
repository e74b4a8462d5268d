import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, isNull } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { auditLog } from '../audit/tables.js';
import { assessment } from '../assessments/tables.js';
import { cuser } from '../persons/tables.js';
import { warnCase } from '../warnings/tables.js';
import { consented } from '../../test/consent.js';

/**
 * Issue 27 item 4: anonymous entries through an institution's QR link are capped per address and
 * per link (under a lock, so parallel entries cannot pass), and staff see a link's entries per hour
 * and can undo a burst: the persons it created, their cases and their results, nothing else.
 */

const HOUR = 3_600_000;
const PER_ADDRESS = 10;
const PER_LINK = 25;
const EN = { 'accept-language': 'en-US' };

/** PHQ-9 with item 9 ("thoughts that you would be better off dead") answered: a critical warning. */
const CRITICAL = [...Array.from({ length: 8 }, (_, i) => ({ no: i + 1, option: 1 })), { no: 9, option: 3 }];
const CALM = Array.from({ length: 9 }, (_, i) => ({ no: i + 1, option: 1 }));

describe.each(engines())('entries through an institution’s QR link on %s', (engine) => {
  let s: TestServer;
  let provider: string;
  let hospital: string;
  let entrytoken: string;
  let ip = 0;
  const nextIp = () => `10.27.${Math.floor(++ip / 250)}.${ip % 250}`;

  const newLink = async () => {
    const made = await s.call('as.m.user.resetQrCode', { musercode: 'I0002' }, provider);
    expect(made.errorCode, made.errorMsg).toBe(0);
    return String(made.data.qrcodeurl).split('/r/')[1]!;
  };
  const enter = (addr: string, realname: string, token = entrytoken, headers: Record<string, string> = {}) =>
    s.call('as.c.exam.enter', { entrytoken: token, appid: '000000001', stagecode: 'ST-M1', realname, gender: '02' }, undefined, {
      'x-test-ip': addr,
      ...headers,
    });
  /** Enters and answers PHQ-9 (critical or calm): the probe's way of making crisis cases. */
  const enterAndAnswer = async (addr: string, realname: string, sheet = CRITICAL, token = entrytoken) => {
    const entered = await enter(addr, realname, token);
    if (entered.errorCode) return entered;
    await consented(s, entered.data.token);
    const submitted = await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet }, entered.data.token);
    expect(submitted.errorCode, submitted.errorMsg).toBe(0);
    return entered;
  };
  const qrPersons = async () =>
    Number(
      (
        await s.database.db
          .select({ n: count() })
          .from(cuser)
          .where(and(eq(cuser.musercode, 'I0002'), eq(cuser.source, 'qrcode'), isNull(cuser.deletedat)))
      )[0]!.n,
    );
  const cases = async () =>
    Number((await s.database.db.select({ n: count() }).from(warnCase).where(eq(warnCase.musercode, 'I0002')))[0]!.n);

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { linkEntriesPerAddressPerHour: PER_ADDRESS, linkEntriesPerLinkPerHour: PER_LINK } });
    provider = (await s.login('provider')).token;
    hospital = (await s.login('hospital')).token;
    const made = await s.call(
      'as.m.user.createMUserClient',
      { musercode: 'I0002', title: '仁和妇幼心理测评', appids: ['000000001'], showresult: 1 },
      provider,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
  });
  afterAll(() => s?.close());
  /** Moves the clock; staff sign in afresh (their sessions would have expired). */
  const later = async (ms: number) => {
    s.clock.advance(ms);
    [provider, hospital] = await Promise.all(['provider', 'hospital'].map(async (u) => (await s.login(u)).token));
  };

  it('the probe’s burst: one address entering 30 times gets its cap, then a clear refusal that registers nobody', async () => {
    const addr = nextIp();
    const [persons0, cases0] = [await qrPersons(), await cases()];
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await enterAndAnswer(addr, `探测${i}`));
    expect(answers.filter((a) => a.errorCode === 0)).toHaveLength(PER_ADDRESS);
    const refused = answers.slice(PER_ADDRESS);
    expect(refused.every((a) => a.errorCode === ErrorCode.rateLimited && a.status === 429)).toBe(true);
    expect(refused[0]!.errorMsg).toContain('登记次数过多');
    expect((await enter(addr, '探测英文', entrytoken, EN)).errorMsg).toMatch(/Too many registrations from this address/);
    expect(await qrPersons()).toBe(persons0 + PER_ADDRESS);
    expect(await cases()).toBe(cases0 + PER_ADDRESS);
    // Another address (a family at home) still enters; the capped one again after the hour.
    expect((await enter(nextIp(), '另一家')).errorCode).toBe(0);
    await later(HOUR + 1);
    expect((await enter(addr, '一小时后')).errorCode).toBe(0);
  });

  it('the link’s cap holds across addresses; a new link has its own', async () => {
    await later(HOUR + 1);
    for (let i = 0; i < PER_LINK; i++) expect((await enter(nextIp(), `学生${i}`)).errorCode).toBe(0);
    const over = await enter(nextIp(), '第二十六人');
    expect(over.errorCode).toBe(ErrorCode.rateLimited);
    expect(over.errorMsg).toContain('该二维码');
    entrytoken = await newLink();
    expect((await enter(nextIp(), '新链接')).errorCode).toBe(0);
  });

  it('60 parallel entries cannot pass either cap', async () => {
    await later(HOUR + 1);
    const persons0 = await qrPersons();
    const addr = nextIp();
    const one = await Promise.all(Array.from({ length: 60 }, (_, i) => enter(addr, `并发${i}`)));
    expect(one.filter((a) => a.errorCode === 0)).toHaveLength(PER_ADDRESS);
    expect(one.filter((a) => a.errorCode === ErrorCode.rateLimited)).toHaveLength(60 - PER_ADDRESS);
    expect(await qrPersons()).toBe(persons0 + PER_ADDRESS);

    const token = await newLink();
    const many = await Promise.all(Array.from({ length: 60 }, (_, i) => enter(nextIp(), `多址${i}`, token)));
    expect(many.filter((a) => a.errorCode === 0)).toHaveLength(PER_LINK);
    expect(await qrPersons()).toBe(persons0 + PER_ADDRESS + PER_LINK);
    entrytoken = token;
  });

  it('staff see the link’s entries by hour and undo a burst: exactly its persons, cases and results, audited', async () => {
    await later(3 * HOUR);
    entrytoken = await newLink();
    // Before the burst: one person through the link, and one entered by staff, in the hour before.
    const earlier = await enterAndAnswer(nextIp(), '早到的人');
    expect(earlier.errorCode).toBe(0);
    const staffMade = await s.call(
      'as.m.cuser.insertCUser',
      { musercode: 'I0002', appid: '000000001', realname: '工作人员录入', gender: '02' },
      hospital,
    );
    expect(staffMade.errorCode, staffMade.errorMsg).toBe(0);
    await later(HOUR);
    const hourStart = new Date(Math.floor(s.clock.now().getTime() / HOUR) * HOUR);
    await later(60_000);
    const burst = nextIp();
    const entered = [];
    for (let i = 0; i < 8; i++) entered.push(await enterAndAnswer(burst, `刷屏${i}`, i < 6 ? CRITICAL : CALM));
    expect(entered.every((e) => e.errorCode === 0)).toBe(true);
    const burstCodes = new Set(entered.map((e) => e.data.assesscode));
    const [persons0, cases0] = [await qrPersons(), await cases()];

    const hours = await s.call('as.m.user.getLinkEntryHours', { musercode: 'I0002' }, hospital);
    expect(hours.errorCode, hours.errorMsg).toBe(0);
    expect(hours.data[0]).toEqual({ hourstart: hourStart.toISOString(), count: 8, warnings: 6, undone: 0 });
    expect(hours.data[1]).toMatchObject({ count: 1, warnings: 1, undone: 0 });

    const window = { musercode: 'I0002', startat: hourStart.toISOString(), endat: new Date(hourStart.getTime() + HOUR).toISOString() };
    const preview = await s.call('as.m.user.previewUndoLinkEntries', window, hospital);
    expect(preview.errorCode, preview.errorMsg).toBe(0);
    expect(preview.data).toEqual({ persons: 8, cases: 6, reports: 8 });
    // The count confirmed must be the count there is: a stale preview changes nothing.
    expect((await s.call('as.m.user.undoLinkEntries', { ...window, count: 7 }, hospital)).errorCode).toBe(ErrorCode.conflict);
    expect(await qrPersons()).toBe(persons0);
    // The narrow counsellor role (the doctor) may not; another institution's link is not found.
    const doctor = (await s.login('doctor')).token;
    expect((await s.call('as.m.user.undoLinkEntries', { ...window, count: 8 }, doctor)).errorCode).toBe(ErrorCode.permissionDenied);
    const school = (await s.login('school')).token;
    expect((await s.call('as.m.user.undoLinkEntries', { ...window, count: 8 }, school)).errorCode).toBe(ErrorCode.notFound);

    const undone = await s.call('as.m.user.undoLinkEntries', { ...window, count: 8 }, hospital);
    expect(undone.errorCode, undone.errorMsg).toBe(0);
    expect(undone.data).toEqual({ persons: 8, cases: 6, reports: 8 });
    expect(await qrPersons()).toBe(persons0 - 8);
    expect(await cases()).toBe(cases0 - 6);
    const left = await s.database.db
      .select({ assesscode: assessment.assesscode })
      .from(assessment)
      .where(eq(assessment.musercode, 'I0002'));
    expect(left.some((r) => burstCodes.has(r.assesscode))).toBe(false);
    // The earlier entry, its report and case, and the staff's person are untouched.
    const list = await s.call('as.m.cuser.getCUserPageList', { musercode: 'I0002', page: 1, pageSize: 200 }, hospital);
    const names = list.data.rows.map((r: { realname: string }) => r.realname);
    expect(names).toEqual(expect.arrayContaining(['早到的人', '工作人员录入']));
    expect(names.some((n: string) => n.startsWith('刷屏'))).toBe(false);
    expect((await s.call('as.m.exam.getCUserReportPageList', { realname: '早到的人' }, hospital)).data.total).toBe(1);
    // A respondent of the burst is signed out: their code is gone.
    expect((await s.call('as.c.exam.getSession', {}, entered[0]!.data.token)).errorCode).toBe(ErrorCode.identityInvalid);

    const audits = await s.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'as.m.user.undoLinkEntries'), eq(auditLog.result, 'ok')));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.detail).toMatchObject({ target: 'I0002', persons: 8, cases: 6, reports: 8 });
    const after = await s.call('as.m.user.getLinkEntryHours', { musercode: 'I0002' }, hospital);
    expect(after.data[0]).toEqual({ hourstart: hourStart.toISOString(), count: 8, warnings: 0, undone: 8 });
    expect((await s.call('as.m.user.previewUndoLinkEntries', window, hospital)).data).toEqual({ persons: 0, cases: 0, reports: 0 });
  });
});
