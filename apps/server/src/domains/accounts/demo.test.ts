import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../seed/demo.js';
import { DEMO_PASSWORD, TEST_EPOCH, engines, freshDatabase, type Engine } from '../../test/harness.js';
import type { Database } from '../../db/database.js';
import { syncReferenceData } from '../../seed/reference.js';
import { testConfig } from '../../config.js';
import { readyEncryption } from '../../encryption.js';
import { resolveEntryToken } from './entry.js';
import { muser, muserEntry } from './tables.js';

/** Issue 28 item 1: on first start every demo institution has its respondent link and QR code. */
describe.each(engines())('demo respondent entries on %s', (engine: Engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(engine);
    await syncReferenceData(database.db);
    // The seed seals phone numbers (issue 30 §3): the test's data key, as every test server has.
    await readyEncryption(database.db, testConfig(), false);
    await seedDemo(database.db, DEMO_PASSWORD, new Date(TEST_EPOCH), { reports: false, entryBase: 'https://xinli.example.cn' });
  });
  afterAll(() => database?.close());

  it('gives every institution, and no provider, an entry whose link opens it and offers its own apps', async () => {
    const accounts = await database.db.select().from(muser);
    const entries = new Map((await database.db.select().from(muserEntry)).map((e) => [e.musercode, e]));
    const institutions = accounts.filter((a) => a.musertype !== '005');
    expect(institutions.length).toBeGreaterThan(4);
    for (const a of accounts) expect(entries.has(a.musercode), a.username).toBe(a.musertype !== '005');
    for (const a of institutions) {
      const e = entries.get(a.musercode)!;
      expect(a.qrcodeurl).toBe(`https://xinli.example.cn/r/${e.token}`);
      expect((await resolveEntryToken(database.db, e.token))?.musercode).toBe(a.musercode);
      expect(e.appids.length, a.username).toBeGreaterThan(0);
      expect(e.hotline).toBe('12356');
      expect(e.showresult).toBe(0);
    }
    expect(entries.get('I0002')!.appids).toEqual(['000000001']);
  });
});
