import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { muserPermission } from '../accounts/tables.js';
import { auditLog } from '../audit/tables.js';
import { planAuthorize } from './tables.js';

/** The plan authorisation data reports (/Datastatistics): details, statistics, export. Today is 2026-11-21. */
describe.each(engines())('plan authorisation data reports on %s', (engine) => {
  let s: TestServer;
  let provider: string, bureau: string, hospital: string, admin: string;
  const details = async (body: object, token = provider) => {
    const res = await s.call('as.m.hospital.statistic.getPlanAuthorizeDetails', body, token);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data as { total: number; rows: { authid: string; status: string; expiring: boolean; remaining: number; count: number; usedcount: number; musercode: string; appname: string }[] };
  };

  beforeAll(async () => {
    s = await startTestServer(engine);
    // The demo hospital has no data reports of its own: give its account the codes for this test.
    await s.database.db.insert(muserPermission).values(['00051', '00052', '00053'].map((code) => ({ musercode: 'I0002', code })));
    [provider, bureau, hospital, admin] = await Promise.all(['provider', 'bureau', 'hospital', 'admin'].map(async (u) => (await s.login(u)).token));
    // Besides the demo's two active ones: ending in 10 days (expiring), not started, ended; one used beyond its count.
    await s.database.db.insert(planAuthorize).values([
      { authid: 'PA-T-SOON', plancode: 'PL-E1', musercode: 'I0003', count: 50, usedcount: 20, startdate: '2026-06-01', enddate: '2026-12-01', grantedby: 'P0001' },
      { authid: 'PA-T-LATER', plancode: 'PL-E1', musercode: 'I0003', count: 30, usedcount: 0, startdate: '2027-01-01', enddate: '2027-12-31', grantedby: 'P0001' },
      { authid: 'PA-T-OLD', plancode: 'PL-M1', musercode: 'I0002', count: 10, usedcount: 12, startdate: '2025-01-01', enddate: '2025-12-31', grantedby: 'P0001' },
    ]);
  }, 120_000);
  afterAll(() => s?.close());

  it('lists what the scope granted or received, with status, remaining and the expiring flag', async () => {
    const all = await details({});
    expect(all.total).toBe(5);
    const byId = new Map(all.rows.map((r) => [r.authid, r]));
    expect(byId.get('PA-T-SOON')).toMatchObject({ status: 'active', expiring: true, remaining: 30, appname: '中老年人' });
    expect(byId.get('PA-T-LATER')).toMatchObject({ status: 'pending', expiring: false, remaining: 30 });
    expect(byId.get('PA-T-OLD')).toMatchObject({ status: 'expired', expiring: false, remaining: 0 });
    for (const [status, ids] of [
      ['expiring', ['PA-T-SOON']],
      ['pending', ['PA-T-LATER']],
      ['expired', ['PA-T-OLD']],
    ] as const) {
      expect((await details({ status })).rows.map((r) => r.authid), status).toEqual(ids);
    }
    expect((await details({ status: 'active' })).total).toBe(3);
    expect((await details({ musercode: 'I0002' })).rows.every((r) => r.musercode === 'I0002')).toBe(true);
    expect((await details({ plancode: 'PL-E1', pageSize: 1, page: 2 })).rows).toHaveLength(1);
  });

  it('sums the same filter into statistics, per institution most authorised first', async () => {
    const res = await s.call('as.m.hospital.statistic.getPlanAuthorizeCount', {}, provider);
    expect(res.errorCode, res.errorMsg).toBe(0);
    const rows = (await details({ pageSize: 200 })).rows;
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
    expect(res.data).toMatchObject({
      authorizations: 5,
      pending: 1,
      active: 3,
      expiring: 1,
      expired: 1,
      count: sum((r) => r.count),
      used: sum((r) => r.usedcount),
      remaining: sum((r) => r.remaining),
    });
    const inst = res.data.institutions as { musercode: string; count: number }[];
    expect(inst.map((r) => r.musercode)).toEqual(['I0002', 'I0003']);
    expect(inst[0]!.count).toBe(rows.filter((r) => r.musercode === 'I0002').reduce((a, r) => a + r.count, 0));
    const expiring = await s.call('as.m.hospital.statistic.getPlanAuthorizeCount', { status: 'expiring' }, provider);
    expect(expiring.data).toMatchObject({ authorizations: 1, count: 50, used: 20, remaining: 30 });
  });

  it('keeps each caller to its own authorisations', async () => {
    // The receiving hospital sees what it received; the bureau neither granted nor received any.
    expect((await details({}, hospital)).rows.map((r) => r.authid).sort()).toEqual(['PA-PL-M1', 'PA-T-OLD']);
    expect((await details({}, bureau)).total).toBe(0);
    expect((await details({}, admin)).total).toBe(5);
    expect((await s.call('as.m.hospital.statistic.getPlanAuthorizeDetails', { musercode: 'I0003' }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.hospital.statistic.getPlanAuthorizeCount', { plancode: 'PL-E1' }, hospital)).errorCode).toBe(ErrorCode.notFound);
  });

  it('exports the filtered details as .xlsx, audited', async () => {
    const res = await s.raw('as.m.hospital.statistic.exportPlanAuthorizeDetails', JSON.stringify({ status: 'expiring' }), { token: provider });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = wb.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]).toContain('剩余');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('康乐养老院');
    const audited = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'as.m.hospital.statistic.exportPlanAuthorizeDetails'));
    expect(audited).toHaveLength(1);
  });
});
