/**
 * The roster preview cache (issue 33 §2): a commit that follows its own preview stores what the
 * preview checked without reading the file again (counted by rosterReads, not timed); a changed
 * file, another institution or another caller reads it again; the commit still asks the database,
 * and an ID number taken between preview and commit refuses it with the row named and nothing
 * stored, also when earlier chunks were already inserted.
 */
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { fingerprint } from '../../test/sweep/fingerprint.js';
import { open } from '../../kit/crypt/index.js';
import { cuser } from './tables.js';
import { idCardHash } from './identity.js';
import { commitRoster, previewCache, previewRoster, rosterReads } from './import-handlers.js';
import { PreviewCache, previewKey } from './import-cache.js';
import { olderAdultRows, rosterFile, templateHeader } from './test-roster.js';

const b64 = (b: Buffer) => b.toString('base64');
const IMPORT = 'as.m.cuser.importZLBCUserFromExcel';

describe('PreviewCache', () => {
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 21) + ms);

  it('forgets an entry after its time, and the oldest first when full', () => {
    const cache = new PreviewCache<string>(100, 1000);
    cache.set('a', 'A', 40, at(0));
    expect(cache.get('a', at(999))).toBe('A');
    expect(cache.get('a', at(1000))).toBeUndefined();
    expect(cache.size()).toEqual({ entries: 0, bytes: 0 });
    cache.set('a', 'A', 40, at(0));
    cache.set('b', 'B', 40, at(1));
    cache.set('c', 'C', 40, at(2)); // 120 > 100: a goes
    expect([cache.get('a', at(3)), cache.get('b', at(3)), cache.get('c', at(3))]).toEqual([undefined, 'B', 'C']);
    cache.set('big', 'X', 101, at(3)); // larger than the whole cache: not kept, nothing else lost
    expect(cache.get('big', at(3))).toBeUndefined();
    expect(cache.size()).toEqual({ entries: 2, bytes: 80 });
  });

  it('keys by the file’s bytes and every other part', () => {
    const file = Buffer.from('roster');
    const key = previewKey(file, ['I0003', 'zh-CN']);
    expect(previewKey(Buffer.from('roster'), ['I0003', 'zh-CN'])).toBe(key);
    expect(previewKey(Buffer.from('rostes'), ['I0003', 'zh-CN'])).not.toBe(key);
    expect(previewKey(file, ['I0009', 'zh-CN'])).not.toBe(key);
    expect(previewKey(file, ['I0003', 'en-US'])).not.toBe(key);
  });
});

describe.each(engines('both'))('roster preview cache on %s', (engine) => {
  let s: TestServer;
  let header: string[];
  let eldercare: string; // I0003
  let provider: string; // P0001, over I0003, with the older-adults app itself
  let signins = 0;
  const signIn = async (u: string) => (await s.login(u, undefined, `10.9.${Math.floor(++signins / 200)}.${signins % 200}`)).token;
  beforeAll(async () => {
    s = await startTestServer(engine);
    eldercare = await signIn('eldercare');
    header = await templateHeader((await s.raw('as.m.cuser.getCUserImportTemplate', JSON.stringify({ template: 'ZLB' }), { token: eldercare })).rawPayload);
  });
  beforeEach(async () => {
    previewCache.clear();
    [eldercare, provider] = await Promise.all(['eldercare', 'provider'].map(signIn));
  });
  afterAll(() => s?.close());

  const roster = async (n: number, from: number) => b64(await rosterFile(header, olderAdultRows(n, from)));
  const importedInto = async (musercode: string) =>
    Number((await s.database.db.select({ n: count() }).from(cuser).where(and(eq(cuser.musercode, musercode), eq(cuser.source, 'import'))))[0]!.n);

  it('a commit after its own preview stores the rows without reading the file again', async () => {
    const content = await roster(20, 1000);
    const reads = rosterReads.count;
    const before = await importedInto('I0003');
    const preview = await s.call(IMPORT, { filename: 'r.xlsx', content }, eldercare);
    expect(preview.data).toMatchObject({ mode: 'preview', total: 20, imported: 20, problemcount: 0 });
    expect(rosterReads.count).toBe(reads + 1);
    const done = await s.call(IMPORT, { filename: 'r.xlsx', content, mode: 'commit' }, eldercare);
    expect(done.errorCode, done.errorMsg).toBe(0);
    expect(done.data).toMatchObject({ mode: 'commit', total: 20, imported: 20 });
    expect(rosterReads.count).toBe(reads + 1);
    expect(await importedInto('I0003')).toBe(before + 20);
    // Stored as the reading path stores them: sealed, with the blind index.
    const [first] = olderAdultRows(1, 1000);
    const [row] = await s.database.db.select().from(cuser).where(and(eq(cuser.musercode, 'I0003'), eq(cuser.idcardhash, idCardHash(String(first![4])))));
    expect(row).toMatchObject({ realname: first![0], appid: '000000004', source: 'import', archiveversion: expect.any(Number) });
    expect(row!.idcard).not.toBe(first![4]);
    expect([open(row!.idcard), open(row!.phonenumber)]).toEqual([first![4], first![3]]);
    // The same file again: read again (the entry went with the commit), every number now taken.
    const again = await s.call(IMPORT, { filename: 'r.xlsx', content }, eldercare);
    expect(again.data.problemcount).toBe(20);
    expect(rosterReads.count).toBe(reads + 2);
  });

  it('a changed file, another institution or another caller reads the file again', async () => {
    const reads = rosterReads.count;
    await s.call(IMPORT, { filename: 'r.xlsx', content: await roster(5, 2000) }, eldercare);
    const changed = await s.call(IMPORT, { filename: 'r.xlsx', content: await roster(6, 2000), mode: 'commit' }, eldercare);
    expect(changed.data).toMatchObject({ imported: 6 });
    expect(rosterReads.count).toBe(reads + 2);

    // The provider previews for I0003 and commits the same file into itself: another institution.
    const other = await roster(4, 3000);
    await s.call(IMPORT, { filename: 'r.xlsx', content: other, musercode: 'I0003' }, provider);
    const theirsBefore = await importedInto('P0001');
    const theirs = await s.call(IMPORT, { filename: 'r.xlsx', content: other, mode: 'commit' }, provider);
    expect(theirs.errorMsg).toBe('');
    expect(theirs.data).toMatchObject({ imported: 4 });
    expect(await importedInto('P0001')).toBe(theirsBefore + 4);
    expect(rosterReads.count).toBe(reads + 4);

    // Previewed by the provider for I0003, committed by I0003 itself: another caller.
    const third = await roster(3, 4000);
    expect((await s.call(IMPORT, { filename: 'r.xlsx', content: third, musercode: 'I0003' }, provider)).data).toMatchObject({ total: 3, problemcount: 0 });
    expect((await s.call(IMPORT, { filename: 'r.xlsx', content: third, mode: 'commit' }, eldercare)).data).toMatchObject({ imported: 3 });
    expect(rosterReads.count).toBe(reads + 6);
  });

  it('a number taken between preview and commit refuses the cached commit with its row named, and stores nothing', async () => {
    const content = await roster(6, 5000);
    expect((await s.call(IMPORT, { filename: 'r.xlsx', content }, eldercare)).data).toMatchObject({ problemcount: 0 });
    const [, , , , fifth] = olderAdultRows(5, 5000);
    const made = await s.call('as.m.cuser.insertCUser', { appid: '000000004', realname: '抢先', gender: '01', idcard: fifth![4], archive: [{ no: 1, value: 1 }] }, eldercare);
    expect(made.errorCode, made.errorMsg).toBe(0);
    const before = await fingerprint(s.database.db);
    const reads = rosterReads.count;
    const refused = await s.call(IMPORT, { filename: 'r.xlsx', content, mode: 'commit' }, eldercare);
    expect(refused.errorCode).toBe(ErrorCode.badImportFile);
    expect(refused.errorMsg).toMatch(/共 1 处错误；第6行「.*身份证号.*」：该身份证号的测评对象已存在/);
    expect(rosterReads.count).toBe(reads); // refused from the cached rows
    expect(await fingerprint(s.database.db)).toEqual(before);
  });

  it('all or nothing across insert statements: rows written by earlier chunks go when a later one meets a taken number', async () => {
    const bytes = await rosterFile(header, olderAdultRows(7, 6000));
    const [, , , , , sixth] = olderAdultRows(6, 6000);
    const made = await s.call('as.m.cuser.insertCUser', { appid: '000000004', realname: '抢先', gender: '01', idcard: sixth![4], archive: [{ no: 1, value: 1 }] }, eldercare);
    expect(made.errorCode, made.errorMsg).toBe(0);
    const opts = { musercode: 'I0003', appid: '000000004', bytes, lang: 'en-US' as const, now: s.clock.now(), caller: 'test', chunkRows: 2 };
    const before = await fingerprint(s.database.db);
    for (const cached of [false, true]) {
      if (cached) expect((await previewRoster(s.database.db, opts)).problems).toEqual([{ row: 7, column: expect.stringContaining('[idcard]'), reason: 'a person with this ID number already exists' }]);
      // Read and stored chunk by chunk, then from the preview's rows: the database names row 7 both times.
      const stored: number[] = [];
      const outcome = await commitRoster(s.database.db, { ...opts, onBatch: (n) => void stored.push(n) });
      expect(stored).toEqual([2, 4]); // two statements' rows were in the transaction
      expect(outcome).toMatchObject({ imported: 0, problemcount: 1, problems: [{ row: 7, reason: 'a person with this ID number already exists' }] });
      expect(await fingerprint(s.database.db)).toEqual(before);
    }
  });
});
