import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { engines, freshDatabase } from '../test/harness.js';
import { createChangeFeed, type ChangeFeed } from './change-feed.js';
import type { Database } from './database.js';

/**
 * The feed hands each subscriber the payloads of its own channels only: the live warning events
 * share the feed with the reference reads, which would otherwise drop everything they keep at
 * every warning.
 */
describe.each(engines('both'))('the change feed (%s)', (engine) => {
  let database: Database;
  let feed: ChangeFeed;
  beforeAll(async () => {
    database = await freshDatabase(engine);
    feed = await createChangeFeed(database.db, ['feed_a', 'feed_b'], 'xinli-change-feed-test');
  });
  afterAll(async () => {
    await feed?.close();
    await database?.close();
  });

  const notify = async (channel: string, payload: string) => {
    await database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
    await feed.confirm(); // on PostgreSQL, what was committed before has been told once this returns
  };

  it('tells a subscriber the payloads of its channels, and nothing of the others', async () => {
    const a: (string | undefined)[] = [];
    const all: (string | undefined)[] = [];
    const stopA = feed.subscribe((p) => a.push(p), ['feed_a']);
    const stopAll = feed.subscribe((p) => all.push(p));
    await notify('feed_a', 'one');
    await notify('feed_b', 'two');
    expect(a).toEqual(['one']);
    expect(all).toEqual(['one', 'two']);
    stopA();
    stopAll();
  });

  it('tells nothing more after the unsubscribe', async () => {
    const heard: (string | undefined)[] = [];
    const stop = feed.subscribe((p) => heard.push(p), ['feed_a']);
    await notify('feed_a', 'before');
    stop();
    await notify('feed_a', 'after');
    expect(heard).toEqual(['before']);
  });
});

/**
 * On PostgreSQL a confirmation is a round trip, and every signed-in request asks for one: the
 * requests read in one turn of the event loop share one, and those asking while it is in flight
 * share the next, sent after it returns (issue 33 §1).
 */
describe.each(engines('both').filter((e) => e === 'postgres'))("the change feed's confirmations (%s)", (engine) => {
  let database: Database;
  let feed: ChangeFeed;
  beforeAll(async () => {
    database = await freshDatabase(engine);
    feed = await createChangeFeed(database.db, ['feed_a'], 'xinli-change-feed-test');
  });
  afterAll(async () => {
    await feed?.close();
    await database?.close();
  });

  const roundTrips = async (ask: () => Promise<unknown>) => {
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      await ask();
      return query.mock.calls.filter(([text]) => text === '').length;
    } finally {
      query.mockRestore();
    }
  };

  it('sends one round trip for all who ask in the same turn', async () => {
    expect(await roundTrips(() => Promise.all(Array.from({ length: 10 }, () => feed.confirm())))).toBe(1);
  });

  it('sends one more for all who ask while one is in flight, and what they ask is confirmed after they asked', async () => {
    const heard: (string | undefined)[] = [];
    const stop = feed.subscribe((p) => heard.push(p), ['feed_a']);
    const trips = await roundTrips(async () => {
      const first = feed.confirm();
      await new Promise((r) => setImmediate(r)); // the first is sent
      await database.db.execute(sql`select pg_notify('feed_a', 'meanwhile')`);
      const later = Array.from({ length: 5 }, () => feed.confirm());
      await Promise.all([first, ...later]);
      expect(heard).toEqual(['meanwhile']);
    });
    stop();
    expect(trips).toBe(2);
  });
});
