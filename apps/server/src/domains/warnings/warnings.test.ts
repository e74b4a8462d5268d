import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { changedTables, fingerprint } from '../../test/sweep/fingerprint.js';
import { md5Upper } from '../auth/index.js';
import { auditLog } from '../audit/tables.js';
import { SIGNATURE_HEADER, signBody, webhookChannel } from './channel.js';
import { configureOutbound } from './jobs.js';
import { sweepMissed } from './sweeps.js';
import { warning } from './tables.js';
import { consented, TEST_SIGNATURE } from '../../test/consent.js';

/** PHQ-9 answers from item scores 0-3 (option position = score + 1). */
const phq = (scores: number[]) => scores.map((s, i) => ({ no: i + 1, option: s + 1 }));
const MINUTE = 60_000;
const DAY = 86_400_000;

describe.each(engines('both'))('warnings, cases and follow-up on %s', (engine) => {
  let s: TestServer;
  let school: string, hospital: string, teacher: string, follower: string, provider: string;
  let plan: string;
  let ip = 0;

  const person = async (realname: string, token = school, appid = '000000002') => {
    const res = await s.call('as.m.cuser.insertCUser', { appid, realname, gender: '01' }, token);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data.cusercode as string;
  };
  /** Gives the PHQ-9 plan and answers it through the respondent channel. */
  const answer = async (cusercode: string, scores: number[]) => {
    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan }, school);
    expect(given.errorCode, given.errorMsg).toBe(0);
    const started = await s.call('as.c.exam.start', { assesscode: given.data.assesscode }, undefined, { 'x-test-ip': `10.9.0.${++ip}` });
    expect(started.errorCode, started.errorMsg).toBe(0);
    const token = await consented(s, started.data.token as string);
    expect((await s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, token)).errorCode).toBe(0);
    const sent = await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: phq(scores) }, token);
    expect(sent.errorCode, sent.errorMsg).toBe(0);
    return sent.data.reportid as string;
  };
  const casesOf = async (cusercode: string, token = school, state: string = 'all') =>
    (
      (await s.call('as.m.warning.getCasePageList', { state, pageSize: 200 }, token)).data.rows as { caseid: string; cusercode: string }[]
    ).filter((r) => r.cusercode === cusercode);
  const getCase = async (caseid: string, token = school) => {
    const res = await s.call('as.m.warning.getCase', { caseid }, token);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data;
  };
  const flag = async (cusercode: string, level: 'critical' | 'attention', token = school) => {
    const res = await s.call('as.m.warning.flagPerson', { cusercode, level, note: '班主任反映情绪低落' }, token);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data as { caseid: string; warningid: string };
  };

  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    const res = await s.call(
      'as.m.exam.plan.insertMUserExamPlan',
      { appid: '000000002', planname: '抑郁筛查', formcodes: ['PHQ9'] },
      school,
    );
    expect(res.errorCode, res.errorMsg).toBe(0);
    plan = res.data.plancode;
    // A follow-up worker: the follow-up page (00017) without the warning page (00046).
    const role = await s.call(
      'as.m.system.role.insertRole',
      { rolename: '随访员', rolekey: 'follower', sort: 5, codes: ['00015', '00017'] },
      school,
    );
    expect(role.errorCode, role.errorMsg).toBe(0);
    const user = await s.call(
      'as.m.system.user.insertUser',
      { sysusername: 'follower1', pwd: md5Upper('Follow123'), realname: '赵随访', roleids: [role.data.roleid] },
      school,
    );
    expect(user.errorCode, user.errorMsg).toBe(0);
  });
  const signIn = async () => {
    [school, hospital, teacher, provider] = await Promise.all(
      ['school', 'hospital', 'teacher', 'provider'].map(async (u) => (await s.login(u)).token),
    );
    follower = (await s.login('follower1', 'Follow123')).token;
  };
  /** Moves the test clock; sessions idle past their limit meanwhile, so staff sign in again. */
  const advance = async (ms: number) => {
    s.clock.advance(ms);
    await signIn();
  };
  beforeEach(signIn);
  afterAll(() => s?.close());

  it('a low total with item 9 = 1 opens a critical case at once, notified to the institution’s warning staff only', async () => {
    const cusercode = await person('周一');
    const before = (await s.call('as.m.warning.getNotificationCount', {}, teacher)).data.unread as number;
    const reportid = await answer(cusercode, [0, 0, 0, 0, 0, 0, 0, 0, 1]);
    const [c] = await casesOf(cusercode);
    expect(c).toMatchObject({
      state: 'open',
      level: 'critical',
      kinds: ['critical_item'],
      warningcount: 1,
      realname: '周一',
      colour: '#9b1c1c',
    });
    const detail = await getCase(c!.caseid, teacher);
    expect(detail.warnings).toEqual([
      expect.objectContaining({
        kind: 'critical_item',
        level: 'critical',
        reportid,
        formcode: 'PHQ9',
        reason: expect.stringContaining('第9题（'),
      }),
    ]);
    // The counsellor (00046) gets a notice; the hospital hears nothing of it.
    expect((await s.call('as.m.warning.getNotificationCount', {}, teacher)).data.unread).toBe(before + 1);
    const list = await s.call('as.m.warning.getNotificationList', { unread: true }, teacher, { 'accept-language': 'en-US' });
    expect(list.data.rows[0]).toMatchObject({ kind: 'critical', caseid: c!.caseid, level: 'critical', read: false });
    expect(JSON.stringify(list.data)).not.toContain('周一');
    expect((await s.call('as.m.warning.getCase', { caseid: c!.caseid }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await casesOf(cusercode, hospital)).length).toBe(0);
    const read = await s.call('as.m.warning.markNotificationsRead', { caseid: c!.caseid }, teacher);
    expect(read.data.unread).toBe(before);
    // Marking read is per reader: the institution account still has it unread.
    expect(
      (await s.call('as.m.warning.getNotificationList', { unread: true }, school)).data.rows.map((r: { caseid: string }) => r.caseid),
    ).toContain(c!.caseid);
  });

  it('a report that worsens by the configured points raises attention; an unchanged one does not', async () => {
    expect(
      (
        await s.call(
          'as.m.warning.updateWarningSettings',
          { worsenpoints: 3, worsenlevels: 0, misseddays: 14, escalateminutes: 60 },
          school,
        )
      ).errorCode,
    ).toBe(0);
    expect((await s.call('as.m.warning.getWarningSettings', {}, school)).data).toEqual({
      musercode: 'I0001',
      worsenpoints: 3,
      worsenlevels: 0,
      misseddays: 14,
      escalateminutes: 60,
    });
    const steady = await person('吴稳');
    await answer(steady, [1, 1, 0, 0, 0, 0, 0, 0, 0]);
    await answer(steady, [1, 1, 0, 0, 0, 0, 0, 0, 0]);
    expect(await casesOf(steady)).toEqual([]);
    const worse = await person('郑加');
    await answer(worse, [1, 1, 0, 0, 0, 0, 0, 0, 0]);
    await advance(DAY);
    await answer(worse, [1, 1, 1, 1, 1, 0, 0, 0, 0]);
    const [c] = await casesOf(worse);
    expect(c).toMatchObject({ level: 'attention', kinds: ['worsening'], colour: '#f5a623' });
    expect((await getCase(c!.caseid)).warnings[0].reason).toBe('较上次同一量表加重（总分 2 → 5，等级 正常 → 轻度）');
    // Filters: by kind and by level; the default list leaves closed cases out.
    const byKind = await s.call('as.m.warning.getCasePageList', { kind: 'worsening', pageSize: 200 }, school);
    expect(byKind.data.rows.every((r: { kinds: string[] }) => r.kinds.includes('worsening'))).toBe(true);
    const attention = await s.call('as.m.warning.getCasePageList', { level: 'attention', pageSize: 200 }, school);
    expect(attention.data.rows.map((r: { caseid: string }) => r.caseid)).toContain(c!.caseid);
    // Other settings for other tests: worsening back to the default.
    await s.call('as.m.warning.updateWarningSettings', { worsenpoints: 5, worsenlevels: 1, misseddays: 14, escalateminutes: 60 }, school);
  });

  it('a second warning for a person with an open case joins it; critical comes first in the list', async () => {
    const cusercode = await person('钱二');
    const first = await flag(cusercode, 'attention');
    const second = await flag(cusercode, 'critical');
    expect(second.caseid).toBe(first.caseid);
    const c = await getCase(first.caseid);
    expect(c.case).toMatchObject({ level: 'critical', warningcount: 2, kinds: ['manual'] });
    expect(c.events.map((e: { what: string }) => e.what)).toEqual(['warning', 'warning']);
    expect(c.events[0].note).toContain('班主任反映情绪低落');
    const rows = (await s.call('as.m.warning.getCasePageList', { pageSize: 200 }, school)).data.rows as { level: string }[];
    const firstAttention = rows.findIndex((r) => r.level === 'attention');
    expect(firstAttention === -1 || rows.slice(firstAttention).every((r) => r.level === 'attention')).toBe(true);
    // The database itself keeps one case per person that is not closed.
    expect(
      (await s.database.db.select().from(warning).where(eq(warning.cusercode, cusercode))).every((w) => w.caseid === first.caseid),
    ).toBe(true);
  });

  it('open → acknowledged → in follow-up → closed, with its refusals and every change kept with who and when', async () => {
    const cusercode = await person('孙三');
    const { caseid } = await flag(cusercode, 'critical');
    expect((await s.call('as.m.warning.acknowledgeCase', { caseid, note: '已电话联系班主任' }, teacher)).errorCode).toBe(0);
    expect((await s.call('as.m.warning.acknowledgeCase', { caseid }, teacher)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.warning.assignCase', { caseid, userid: 'U0001' }, school)).errorCode).toBe(0);
    // Only a staff user of the case's institution can be assigned.
    expect((await s.call('as.m.warning.assignCase', { caseid, userid: 'U0101' }, school)).errorCode).toBe(ErrorCode.notFound);
    const fu = await s.call(
      'as.m.warning.insertFollowUp',
      { caseid, followdate: '2026-11-21', way: 'interview', content: '面谈，学生情绪平稳', risk: 2, nextdate: '2026-11-25' },
      follower,
    );
    expect(fu.errorCode, fu.errorMsg).toBe(0);

    // Closing: an outcome and a note are required; the follow-up worker lacks the warning code.
    const before = await fingerprint(s.database.db);
    expect((await s.call('as.m.warning.closeCase', { caseid, note: '已转介' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.warning.closeCase', { caseid, outcome: 'referred', note: '' }, school)).errorCode).toBe(
      ErrorCode.validation,
    );
    expect((await s.call('as.m.warning.closeCase', { caseid, outcome: 'referred', note: '已转介' }, follower)).errorCode).toBe(
      ErrorCode.permissionDenied,
    );
    // Another institution's case is not found, and nothing changes.
    expect((await s.call('as.m.warning.closeCase', { caseid, outcome: 'referred', note: '已转介' }, hospital)).errorCode).toBe(
      ErrorCode.notFound,
    );
    expect(
      changedTables(before, await fingerprint(s.database.db)).filter((t) => !['audit_log', 'session', 'login_attempt'].includes(t)),
    ).toEqual([]);

    expect(
      (await s.call('as.m.warning.closeCase', { caseid, outcome: 'referred', note: '已转介至市精神卫生中心' }, teacher)).errorCode,
    ).toBe(0);
    expect(
      (await s.call('as.m.warning.insertFollowUp', { caseid, followdate: '2026-11-22', way: 'phone', content: 'x', risk: 1 }, follower))
        .errorCode,
    ).toBe(ErrorCode.conflict);
    const c = await getCase(caseid);
    expect(c.case).toMatchObject({ state: 'closed', outcome: 'referred', assignee: 'U0001', assigneename: '王老师' });
    expect(c.events.map((e: { what: string; from: string; to: string; by: string }) => [e.what, e.from, e.to, e.by])).toEqual([
      ['warning', '', 'open', 'I0001'],
      ['state', 'open', 'acknowledged', 'U0001'],
      ['assign', 'acknowledged', 'acknowledged', 'I0001'],
      ['followup', 'acknowledged', 'followup', expect.stringMatching(/^U/)],
      ['state', 'followup', 'closed', 'U0001'],
    ]);
    expect(c.events.every((e: { at: string; byname: string }) => e.at && e.byname)).toBe(true);
    // The timeline says who was given the case and what the follow-up did, not their ids.
    expect(c.events.map((e: { note: string }) => e.note).slice(2, 4)).toEqual(['王老师', '面谈，学生情绪平稳']);
    expect(c.followups).toEqual([expect.objectContaining({ way: 'interview', risk: 2, nextdate: '2026-11-25', byname: '赵随访' })]);
    // A later warning opens a new case.
    const again = await flag(cusercode, 'attention');
    expect(again.caseid).not.toBe(caseid);
  });

  it('an overdue follow-up is highlighted; a rescreen gives the plan again from the case; intervention records count it', async () => {
    const cusercode = await person('李四');
    const { caseid } = await flag(cusercode, 'attention');
    const fu = await s.call(
      'as.m.warning.insertFollowUp',
      { caseid, followdate: '2026-11-21', way: 'phone', content: '电话随访', risk: 1, nextdate: '2026-11-23' },
      follower,
    );
    expect(fu.errorCode).toBe(0);
    const page = async () => (await s.call('as.m.warning.getFollowUpPageList', { caseid }, follower)).data.rows[0];
    expect(await page()).toMatchObject({ followid: fu.data.followid, overdue: false });
    await advance(3 * DAY);
    expect(await page()).toMatchObject({ overdue: true });
    const overdue = await s.call('as.m.warning.getFollowUpPageList', { overdue: true, pageSize: 200 }, follower);
    expect(overdue.data.rows.map((r: { followid: string }) => r.followid)).toContain(fu.data.followid);
    expect((await getCase(caseid)).case.overdue).toBe(true);

    const re = await s.call('as.m.warning.rescreenCase', { caseid, plancode: plan }, follower);
    expect(re.errorCode, re.errorMsg).toBe(0);
    const plans = await s.call('as.m.cuser.getCUserPlan', { cusercode }, school);
    expect(plans.data.map((p: { assesscode: string }) => p.assesscode)).toContain(re.data.assesscode);
    expect((await getCase(caseid)).events.at(-1)).toMatchObject({ what: 'rescreen', note: re.data.assesscode });

    const rec = await s.call('as.m.hospital.statistic.getInterfereRecord', { pageSize: 200 }, school);
    expect(rec.errorCode, rec.errorMsg).toBe(0);
    expect(rec.data.rows.map((r: { followid: string }) => r.followid)).toContain(fu.data.followid);
    expect(rec.data.cases.closed).toBeGreaterThanOrEqual(1);
    expect(rec.data.cases.outcomes.referred).toBeGreaterThanOrEqual(1);
    const other = await s.call('as.m.hospital.statistic.getInterfereRecord', { pageSize: 200 }, hospital);
    expect(other.data.rows.map((r: { followid: string }) => r.followid)).not.toContain(fu.data.followid);
  });

  it('a critical case nobody acknowledges is escalated to the administrators once its time has passed (controlled clock)', async () => {
    const late = await person('冯五');
    const quick = await person('陈六');
    const { caseid } = await flag(late, 'critical');
    const acked = await flag(quick, 'critical');
    expect((await s.call('as.m.warning.acknowledgeCase', { caseid: acked.caseid }, teacher)).errorCode).toBe(0);
    await advance(59 * MINUTE);
    await s.jobs.runDue();
    expect((await getCase(caseid)).case.escalatedat).toBeNull();
    await advance(2 * MINUTE);
    await s.jobs.runDue();
    expect((await getCase(caseid)).case.escalatedat).toBe(s.clock.now().toISOString());
    expect((await getCase(acked.caseid)).case.escalatedat).toBeNull();
    const kinds = async (token: string) =>
      ((await s.call('as.m.warning.getNotificationList', { pageSize: 200 }, token)).data.rows as { kind: string; caseid: string }[])
        .filter((n) => n.caseid === caseid)
        .map((n) => n.kind);
    expect((await kinds(school)).sort()).toEqual(['critical', 'escalated']);
    expect(await kinds(teacher)).toEqual(['critical']);
  });

  it('a missed deadline raises one warning, not one per day', async () => {
    const cusercode = await person('褚七');
    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan }, school);
    expect(given.errorCode).toBe(0);
    await advance(13 * DAY);
    await sweepMissed(s.database.db, s.clock.now());
    expect(await casesOf(cusercode)).toEqual([]);
    for (let d = 0; d < 3; d++) {
      s.clock.advance(DAY);
      await sweepMissed(s.database.db, s.clock.now());
    }
    await signIn();
    const cases = await casesOf(cusercode);
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({ kinds: ['missed'], level: 'attention', warningcount: 1 });
    expect(
      (
        await s.database.db
          .select()
          .from(warning)
          .where(and(eq(warning.cusercode, cusercode), eq(warning.kind, 'missed')))
      ).length,
    ).toBe(1);
  });

  it('a sweep asked to stop raises nothing more, and the next sweep raises what it left', async () => {
    const cusercode = await person('卫八');
    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan }, school);
    expect(given.errorCode).toBe(0);
    await advance(20 * DAY);
    const stop = new AbortController();
    stop.abort();
    await expect(sweepMissed(s.database.db, s.clock.now(), { signal: stop.signal })).rejects.toThrow();
    await signIn();
    expect(await casesOf(cusercode)).toEqual([]);
    expect(await sweepMissed(s.database.db, s.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await casesOf(cusercode)).toHaveLength(1);
  });

  it('exports the filtered list (audited), one row per warning, and nothing of other institutions', async () => {
    const res = await s.raw('as.m.exam.exportCUserWarningDetailData', JSON.stringify({ state: 'all' }), { token: school });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = wb.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]).toContain('测评对象');
    const names = rows.slice(1).map((r) => r[3]);
    expect(names).toContain('周一');
    expect(rows.slice(1).every((r) => r[2] === '滨江第一中学')).toBe(true);
    // Levels, states and kinds in the console's words, never codes (issue 28 item 5).
    for (const r of rows.slice(1)) {
      expect(['危急', '关注']).toContain(r[4]);
      expect(['待确认', '已确认', '跟进中', '已结案']).toContain(r[5]);
      expect(['危急', '关注']).toContain(r[8]);
      expect(['危机条目', '高风险分段', '分数恶化', '逾期未测', '人工标记']).toContain(r[9]);
    }
    const en = await s.raw('as.m.exam.exportCUserWarningDetailData', JSON.stringify({ state: 'all' }), {
      token: school,
      'accept-language': 'en-US',
    });
    const wbEn = new ExcelJS.Workbook();
    await wbEn.xlsx.load(en.rawPayload as unknown as ArrayBuffer);
    for (const r of (wbEn.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][]).slice(1)) {
      expect(['Critical', 'Attention']).toContain(r[4]);
      expect(['New', 'Acknowledged', 'In follow-up', 'Closed']).toContain(r[5]);
      expect(['Critical item', 'High-risk band', 'Worsening', 'Missed assessment', 'Flagged by staff']).toContain(r[9]);
    }
    const audited = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'as.m.exam.exportCUserWarningDetailData'));
    expect(audited.length).toBeGreaterThan(0);
    // The provider over both sees both; the hospital's export holds none of the school's.
    const mine = await s.raw('as.m.exam.exportCUserWarningDetailData', JSON.stringify({ state: 'all' }), { token: hospital });
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(mine.rawPayload as unknown as ArrayBuffer);
    expect(JSON.stringify(wb2.worksheets[0]!.getSheetValues())).not.toContain('周一');
    expect((await s.call('as.m.warning.getCasePageList', { musercode: 'I0001' }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.warning.getCasePageList', { musercode: 'I0001', state: 'all' }, provider)).data.total).toBeGreaterThan(0);
  });

  it('sends critical warnings to the webhook with a signature and no name or phone, retrying a failure', async () => {
    const received: { body: string; signature: string }[] = [];
    let failNext = true;
    const hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (failNext) {
          failNext = false;
          res.writeHead(503).end();
          return;
        }
        received.push({ body, signature: String(req.headers[SIGNATURE_HEADER]) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      // Earlier tests left messages: they go nowhere (no channel) before the webhook is set.
      await s.jobs.runDue();
      configureOutbound(s.database.db, { channel: webhookChannel(url, 'sekrit'), publicBaseUrl: 'https://xinli.example' });
      const cusercode = await person('卫八');
      const { caseid } = await flag(cusercode, 'critical');
      await s.jobs.runDue();
      expect(received).toHaveLength(0);
      // The failed attempt is retried after its delay.
      await advance(2 * MINUTE);
      await s.jobs.runDue();
      expect(received).toHaveLength(1);
      const msg = JSON.parse(received[0]!.body);
      expect(msg).toMatchObject({
        kind: 'critical',
        caseid,
        musercode: 'I0001',
        level: 'critical',
        link: `https://xinli.example/earlyWarning/earlyWarning?caseid=${caseid}`,
      });
      expect(received[0]!.signature).toBe(signBody(received[0]!.body, 'sekrit'));
      expect(received[0]!.body).not.toContain('卫八');
      expect(received[0]!.body).not.toContain(cusercode);
      await advance(10 * MINUTE);
      await s.jobs.runDue();
      expect(received).toHaveLength(1);
    } finally {
      configureOutbound(s.database.db, { channel: null, publicBaseUrl: '' });
      await new Promise((r) => hook.close(r));
    }
  });

  it('pushes a new critical warning to the console stream without reloading, with no personal data', async () => {
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
    expect(((await (await fetch(`${base}/api/events`)).json()) as { errorCode: number }).errorCode).toBe(ErrorCode.identityInvalid);
    expect(((await (await fetch(`${base}/api/events`, { headers: { token: follower } })).json()) as { errorCode: number }).errorCode).toBe(
      ErrorCode.permissionDenied,
    );
    const ac = new AbortController();
    const res = await fetch(`${base}/api/events`, { headers: { token: teacher }, signal: ac.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    // The stream writes its own head: the security headers are still on it.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended: ${text}`);
        text += decoder.decode(value);
      }
    };
    await until(/event: ready\ndata: \{"count":\d+\}/);
    const cusercode = await person('蒋九');
    const other = await person('韩十', hospital, '000000001');
    await flag(other, 'critical', hospital);
    const { caseid } = await flag(cusercode, 'critical');
    await until(new RegExp(`event: warning\\ndata: \\{"kind":"critical","caseid":"${caseid}","level":"critical","count":\\d+\\}`));
    ac.abort();
    expect(text).not.toContain('蒋九');
    expect(text).not.toContain(cusercode);
    // The hospital's warning never reached the school's stream.
    expect(text.match(/event: warning/g)).toHaveLength(1);
  });
});
