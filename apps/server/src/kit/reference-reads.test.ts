import { describe, expect, it } from 'vitest';
import type { ChangeFeed } from '../db/change-feed.js';
import type { DbOrTx } from '../db/database.js';
import { keepReferenceReads, keptSince, referenceRead } from './reference-reads.js';

/** A change feed driven by the test: `tell()` is a notification, `up` whether it listens. */
function testFeed() {
  const subscribers: (() => void)[] = [];
  const feed = {
    up: true,
    confirms: 0,
    subscribe: (fn: () => void) => {
      subscribers.push(fn);
      return () => {};
    },
    confirm: async () => {
      feed.confirms++;
      if (!feed.up) throw new Error('not listening');
    },
    listening: () => feed.up,
    close: async () => {},
    tell: () => subscribers.forEach((fn) => fn()),
  };
  return feed satisfies ChangeFeed;
}

/** A read of a value per key from a "table" the test changes, counting the reads. */
function setUp() {
  const db = {} as DbOrTx;
  const feed = testFeed();
  keepReferenceReads(db, feed, ['xinli_ref']);
  const table = new Map<string, { name: string }>([['P1', { name: '计划一' }]]);
  let reads = 0;
  let during: (() => void) | undefined;
  const read = referenceRead(
    'test_names',
    (code: string) => code,
    async (_db, code: string) => {
      reads++;
      during?.();
      return table.get(code) ?? null;
    },
  );
  return { db, feed, table, read, reads: () => reads, whileReading: (fn?: () => void) => (during = fn) };
}

describe('reference reads (kit/reference-reads)', () => {
  it('reads a key once, confirms every hit, and hands each caller its own copy', async () => {
    const t = setUp();
    const first = await t.read(t.db, 'P1');
    first!.name = '改了副本';
    expect(await t.read(t.db, 'P1')).toEqual({ name: '计划一' });
    expect(await t.read(t.db, 'P1')).toEqual({ name: '计划一' });
    expect(t.reads()).toBe(1);
    expect(t.feed.confirms).toBe(2);
  });

  it('copies what reads give (a Map of rows with dates and jsonb) whole, each caller its own', async () => {
    const db = {} as DbOrTx;
    keepReferenceReads(db, testFeed(), ['xinli_ref']);
    const row = () => ({
      formcode: 'GAD7',
      updatedat: new Date('2026-11-21T08:00:00Z'),
      bands: [{ min: 0, max: 4, label: { zh: '无', en: 'none' } }],
      note: null,
      gone: undefined,
    });
    const read = referenceRead(
      'test_definitions',
      () => 'GAD7',
      async () => new Map([['GAD7', row()]]),
    );
    await read(db);
    const mine = await read(db);
    expect(mine).toBeInstanceOf(Map);
    expect(mine.get('GAD7')!.updatedat).toBeInstanceOf(Date);
    expect(mine.get('GAD7')).toStrictEqual(row());
    mine.get('GAD7')!.bands[0]!.label.zh = '改了副本';
    mine.get('GAD7')!.updatedat.setTime(0);
    expect((await read(db)).get('GAD7')).toStrictEqual(row());
  });

  it('reads again after a change is told', async () => {
    const t = setUp();
    await t.read(t.db, 'P1');
    t.table.set('P1', { name: '新名字' });
    t.feed.tell();
    expect(await t.read(t.db, 'P1')).toEqual({ name: '新名字' });
    expect(t.reads()).toBe(2);
  });

  it('does not keep what was read while a change was told', async () => {
    const t = setUp();
    t.whileReading(() => t.feed.tell());
    await t.read(t.db, 'P1');
    t.whileReading();
    await t.read(t.db, 'P1');
    expect(t.reads()).toBe(2);
  });

  it('reads every time while the feed is down, or when the confirmation fails', async () => {
    const t = setUp();
    t.feed.up = false;
    await t.read(t.db, 'P1');
    await t.read(t.db, 'P1');
    expect(t.reads()).toBe(2);
    t.feed.up = true;
    await t.read(t.db, 'P1');
    // Kept now; the feed then goes down between the check and the confirmation.
    t.feed.confirm = async () => {
      throw new Error('not listening');
    };
    await t.read(t.db, 'P1');
    expect(t.reads()).toBe(4);
  });

  it('keeps only the values its keeps allows (a person found, not a person missing)', async () => {
    const db = {} as DbOrTx;
    keepReferenceReads(db, testFeed(), ['xinli_ref']);
    let reads = 0;
    const read = referenceRead(
      'test_found',
      (code: string) => code,
      async (_db, code: string) => (reads++, code === 'P1' ? { name: '计划一' } : null),
      (value) => value !== null,
    );
    for (let i = 0; i < 2; i++) await Promise.all([read(db, 'P1'), read(db, 'P9')]);
    expect(reads).toBe(3);
  });

  it('keeps nothing for a database it was not given (a transaction, a script)', async () => {
    const t = setUp();
    const other = {} as DbOrTx;
    await t.read(other, 'P1');
    await t.read(other, 'P1');
    expect(t.reads()).toBe(2);
  });

  it('keeps a value read another way, unless a change was told since before it was read', async () => {
    const t = setUp();
    const since = keptSince(t.db);
    t.read.keep(t.db, since, ['P1'], { name: '计划一' });
    expect(await t.read(t.db, 'P1')).toEqual({ name: '计划一' });
    expect(t.reads()).toBe(0);

    const before = keptSince(t.db);
    t.feed.tell();
    t.read.keep(t.db, before, ['P2'], { name: '旧的' });
    expect(await t.read(t.db, 'P2')).toBeNull();
    expect(t.reads()).toBe(1);

    const other = {} as DbOrTx;
    t.read.keep(other, keptSince(other), ['P1'], { name: '不留' });
    expect(await t.read(other, 'P1')).toEqual({ name: '计划一' });
    expect(t.reads()).toBe(2);
  });
});
