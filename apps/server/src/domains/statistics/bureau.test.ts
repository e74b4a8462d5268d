import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { BUREAU_COVERS, oracle } from './test-oracle.js';

/**
 * What an education bureau (`bureau`, login-as marker JYJ, Binjiang 330108) sees on the pages of
 * issue 28 item 6, against counts over the raw rows: the report analysis' stage and form choices,
 * the crisis cases as totals, and the plan authorisations of its district's schools. And what it
 * must not see: another district, a person, a small cell.
 */

type Row = Record<string, unknown>;
/** The bureau's statistics cover itself and the schools of its district. */
const COVERED = BUREAU_COVERS;
const MIN = 5;
const cell = (n: number) => (n > 0 && n < MIN ? null : n);

describe.each(engines())('the education bureau on %s', (engine) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  const { rows, call } = oracle(() => s, tokens);

  beforeAll(async () => {
    s = await startTestServer(engine, { demoReports: true, config: { aiMinCell: MIN } });
    for (const u of ['bureau', 'school', 'provider']) tokens[u] = (await s.login(u)).token;
  }, 180_000);
  afterAll(() => s?.close());

  it("lists the district's stages and forms for the report analysis, counted as the raw rows", async () => {
    const raw = await rows<{ stagecode: string; n: number; persons: number }>(sql`
      select a.stagecode, count(*)::int as n, count(distinct a.cusercode)::int as persons
      from assessment a join cuser c on c.cusercode = a.cusercode join muser m on m.musercode = a.musercode
      where ${COVERED} and c.deletedat is null group by a.stagecode`);
    expect(raw.length).toBeGreaterThan(0);
    const stages = (await call('bureau', 'as.m.exam.getCUserStagesAssessCount', {})) as { stagecode: string; reports: number; persons: number }[];
    expect(Object.fromEntries(stages.map((r) => [r.stagecode, [r.reports, r.persons]]))).toEqual(
      Object.fromEntries(raw.map((r) => [r.stagecode, [Number(r.n), Number(r.persons)]])),
    );
    // Each listed stage narrows the figures of the page.
    for (const { stagecode } of stages.filter((r) => r.stagecode)) {
      const [one] = raw.filter((r) => r.stagecode === stagecode);
      const forms = (await call('bureau', 'as.m.exam.getQuotaFilterConditions', { stagecode })) as { reports: number }[];
      expect(forms.reduce((a, f) => a + f.reports, 0)).toBe(Number(one!.n));
    }
  });

  it('sees the crisis cases of its district as totals, small cells withheld', async () => {
    const raw = await rows<{ musercode: string; level: string; state: string; n: number }>(sql`
      select k.musercode, k.level, k.state, count(*)::int as n from warn_case k join muser m on m.musercode = k.musercode
      where ${COVERED} group by 1, 2, 3`);
    const sum = (keep: (r: (typeof raw)[number]) => boolean) => raw.filter(keep).reduce((a, r) => a + Number(r.n), 0);
    expect(sum(() => true)).toBeGreaterThanOrEqual(MIN);
    const got = await call('bureau', 'as.m.warning.getCaseSummary', {});
    expect(got.mincell).toBe(MIN);
    expect(got.total).toBe(cell(sum(() => true)));
    /**
     * A partition whose sum is published: every shown cell is its raw count and not small; a
     * withheld cell is small or withheld with another, never alone (it would be the total minus
     * the others); and a small raw cell is never shown.
     */
    const partition = (label: string, shown: (number | null)[], raw: number[]) => {
      shown.forEach((v, i) => {
        if (v === null) return;
        expect(v, `${label} ${i}`).toBe(raw[i]);
        expect(v > 0 && v < MIN, `${label} ${i} small`).toBe(false);
      });
      expect(shown.filter((v) => v === null).length, `${label} withheld alone`).not.toBe(1);
    };
    const levels = ['critical', 'attention'];
    expect(got.bylevel.map((r: Row) => r.level)).toEqual(levels);
    partition('levels', got.bylevel.map((r: Row) => r.count), levels.map((l) => sum((r) => r.level === l)));
    const states = ['open', 'acknowledged', 'followup', 'closed'];
    expect(got.bystate.map((r: Row) => r.state)).toEqual(states);
    partition('states', got.bystate.map((r: Row) => r.count), states.map((st) => sum((r) => r.state === st)));
    // A few attention cases: the critical count would give them away (the total minus it), so both are withheld.
    const attention = sum((r) => r.level === 'attention');
    if (attention > 0 && attention < MIN) expect(got.bylevel.every((r: Row) => r.count === null)).toBe(true);
    const schools = [...new Set(raw.map((r) => r.musercode))];
    expect(got.byschool.map((r: Row) => r.musercode).sort()).toEqual(schools.sort());
    partition('school totals', got.byschool.map((r: Row) => r.total), got.byschool.map((r: Row) => sum((x) => x.musercode === r.musercode)));
    for (const r of got.byschool) {
      const n = sum((x) => x.musercode === r.musercode);
      const critical = sum((x) => x.musercode === r.musercode && x.level === 'critical');
      const open = sum((x) => x.musercode === r.musercode && x.state !== 'closed');
      expect(r.total).toBe(n);
      // A school's critical (open) cases are shown as counted unless they, or the rest, are small.
      if (r.critical !== null) expect(r.critical).toBe(critical);
      if (r.open !== null) expect(r.open).toBe(open);
      if (n - open > 0 && n - open < MIN) expect(r.open).toBeNull();
      if (n - critical > 0 && n - critical < MIN) expect(r.critical).toBeNull();
    }
    const [follow] = await rows<{ n: number }>(sql`select count(*)::int as n from follow_up f join warn_case k on k.caseid = f.caseid
      join muser m on m.musercode = k.musercode where ${COVERED}`);
    expect(got.followups).toBe(cell(Number(follow!.n)));
    // A small count is withheld, never rounded: a day's few cases show as null, not 0 or 5.
    const [day] = await rows<{ d: string; n: number }>(sql`
      select to_char(k.openedat at time zone 'Asia/Shanghai', 'YYYY-MM-DD') as d, count(*)::int as n
      from warn_case k join muser m on m.musercode = k.musercode where ${COVERED} group by 1 having count(*) < ${MIN} order by 1 limit 1`);
    if (day) expect((await call('bureau', 'as.m.warning.getCaseSummary', { startdate: day.d, enddate: day.d })).total).toBeNull();
  });

  it('does not see a person: no names in the summary, and the case and report lists stay its own (empty)', async () => {
    const got = JSON.stringify(await call('bureau', 'as.m.warning.getCaseSummary', {}));
    const names = await rows<{ realname: string; cusercode: string }>(sql`
      select c.realname, c.cusercode from warn_case k join cuser c on c.cusercode = k.cusercode join muser m on m.musercode = k.musercode
      where ${COVERED}`);
    expect(names.length).toBeGreaterThan(0);
    for (const p of names) {
      expect(got).not.toContain(p.realname);
      expect(got).not.toContain(p.cusercode);
    }
    expect((await call('bureau', 'as.m.warning.getCasePageList', { page: 1, pageSize: 10 })).total).toBe(0);
    expect((await call('bureau', 'as.m.exam.getCUserReportPageList', { page: 1, pageSize: 10 })).total).toBe(0);
    // A person's report filter stays "not found" for the bureau.
    const res = await s.call('as.m.exam.getCUserStagesAssessCount', { cusercode: names[0]!.cusercode }, tokens.bureau);
    expect(res.errorCode).toBe(ErrorCode.notFound);
  });

  it('does not see another district: the hospital, and a school elsewhere, are not found; their cases not counted', async () => {
    for (const name of ['as.m.warning.getCaseSummary', 'as.m.exam.getCUserStagesAssessCount'] as const) {
      for (const musercode of ['I0002', 'I0006']) {
        const res = await s.call(name, { musercode }, tokens.bureau);
        expect(res.errorCode, `${name} ${musercode}`).toBe(ErrorCode.notFound);
      }
    }
    const codes = (await call('bureau', 'as.m.warning.getCaseSummary', {})).byschool.map((r: Row) => r.musercode);
    expect(codes).not.toContain('I0002');
    expect(codes).not.toContain('I0006');
    // An ordinary institution keeps its own summary only.
    const school = await call('school', 'as.m.warning.getCaseSummary', {});
    expect(school.byschool.map((r: Row) => r.musercode)).toEqual(['I0001']);
  });

  it("sees the plan authorisations its district's schools received, not another district's", async () => {
    await s.database.db.execute(sql`insert into plan_authorize (authid, plancode, musercode, count, usedcount, startdate, enddate, grantedby)
      values ('AU-BJ-1', 'PL-W1', 'I0001', 40, 12, '2026-09-01', '2027-08-31', 'P0001'),
             ('AU-GZ-1', 'PL-W1', 'I0006', 30, 3, '2026-09-01', '2027-08-31', 'P0001')`);
    try {
      const details = await call('bureau', 'as.m.hospital.statistic.getPlanAuthorizeDetails', { page: 1, pageSize: 50 });
      expect(details.rows.map((r: Row) => r.authid)).toEqual(['AU-BJ-1']);
      const counts = await call('bureau', 'as.m.hospital.statistic.getPlanAuthorizeCount', {});
      expect([counts.authorizations, counts.count, counts.used, counts.remaining]).toEqual([1, 40, 12, 28]);
      expect(counts.institutions.map((r: Row) => r.musercode)).toEqual(['I0001']);
      const elsewhere = await s.call('as.m.hospital.statistic.getPlanAuthorizeDetails', { musercode: 'I0006', page: 1, pageSize: 10 }, tokens.bureau);
      expect(elsewhere.errorCode).not.toBe(0);
    } finally {
      await s.database.db.execute(sql`delete from plan_authorize where authid in ('AU-BJ-1', 'AU-GZ-1')`);
    }
  });
});
