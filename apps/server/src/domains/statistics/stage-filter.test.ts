import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ErrorCode, type ActionName } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * Issue 28 item 4: the report analysis of an institution whose reports carry a stage it was
 * never given (the employer's reports are in the provider's stage ST-W1). The analysis lists the
 * stages of the caller's reports, then asks each statistics action for one of them: every stage
 * the list offers must be answered, and counted exactly as the raw rows. A stage neither readable
 * nor used by the caller's reports stays "not found".
 */

const STATS = [
  'as.m.assess.getAssessCount',
  'as.m.assess.getAssessAbnormalCount',
  'as.m.assess.getAssessPeopleCompleteCount',
  'as.m.assess.getDepressedQuotaCountRatio',
  'as.m.assess.getAnxiousQuotaCountRatio',
] as const satisfies readonly ActionName[];

describe.each(engines())('a stage of the caller’s reports as a filter on %s', (engine) => {
  let s: TestServer;
  let token = '';
  const one = async (q: ReturnType<typeof sql>) => Number(((await s.database.db.execute(q)) as unknown as { rows: { n: number }[] }).rows[0]!.n);

  beforeAll(async () => {
    s = await startTestServer(engine, { demoReports: true });
    token = (await s.login('warning')).token;
  }, 180_000);
  afterAll(() => s?.close());

  it('answers every statistics action for each stage the report analysis lists', async () => {
    const listed = await s.call('as.m.exam.getCUserStagesAssessCount', {}, token);
    expect(listed.errorCode, listed.errorMsg).toBe(0);
    const stages = (listed.data as { stagecode: string }[]).map((r) => r.stagecode).filter(Boolean);
    expect(stages).toContain('ST-W1');
    for (const stagecode of stages) {
      for (const name of STATS) {
        const res = await s.call(name, { stagecode }, token);
        expect(res.errorCode, `${name} ${stagecode}: ${res.errorMsg}`).toBe(0);
      }
      const raw = await one(sql`select count(*) as n from assessment a join cuser c on c.cusercode = a.cusercode
        where a.musercode = 'I0004' and a.stagecode = ${stagecode} and a.hidden = 0 and a.voided = 0 and c.deletedat is null`);
      expect(raw).toBeGreaterThan(0);
      expect((await s.call('as.m.assess.getAssessCount', { stagecode }, token)).data).toEqual({ count: raw });
      // The per-form levels and the stage list narrowed to it answer too.
      for (const name of ['as.m.exam.getQuotaFilterConditions', 'as.m.exam.getCUserStagesAssessCount'] as const) {
        const res = await s.call(name, { stagecode }, token);
        expect(res.errorCode, `${name} ${stagecode}: ${res.errorMsg}`).toBe(0);
      }
    }
  });

  it('still refuses a stage the caller neither reads nor has reports in', async () => {
    for (const name of [...STATS, 'as.m.exam.getCUserStagesAssessCount'] as const) {
      const res = await s.call(name, { stagecode: 'ST-S1' }, token);
      expect(res.errorCode, name).toBe(ErrorCode.notFound);
    }
  });
});
