import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testConfig } from '../../config.js';
import { openDatabase, type Database } from '../../db/database.js';
import { engines, freshDatabase, testClock } from '../../test/harness.js';
import { enqueue, job, JobFailure, jobLanes, JobRunner, startPeriodic, type JobHandlers } from './index.js';

const MINUTE = 60_000;

describe.each(engines('both'))('background jobs on %s', (engine) => {
  let database: Database;
  /** A second connection pool to the same database on PostgreSQL (another server process's view of it). */
  let other: Database;
  const clock = testClock();

  beforeAll(async () => {
    database = await freshDatabase(engine);
    other = engine === 'postgres' ? await openDatabase({ url: (database as unknown as { url: string }).url, migrate: false }) : database;
  });
  afterAll(async () => {
    if (other !== database) await other.close();
    await database?.close();
  });

  const runner = (handlers: JobHandlers, db = database, id = 'w1', more = {}) =>
    new JobRunner({ db: db.db, config: testConfig(), now: clock.now, handlers, workerId: id, ...more });
  const row = async (id: string) => (await database.db.select().from(job).where(eq(job.id, id)))[0]!;

  it('two workers on one database run each job exactly once', async () => {
    const runs = new Map<number, string[]>();
    const handlers = (who: string): JobHandlers => ({
      count: {
        run: async ({ n }: { n: number }) => {
          // Yield so the two workers really interleave their claims.
          await new Promise((r) => setImmediate(r));
          runs.set(n, [...(runs.get(n) ?? []), who]);
        },
      },
    });
    for (let n = 0; n < 40; n++) await enqueue(database.db, 'count', { n }, { now: clock.now() });
    const [a, b] = await Promise.all([runner(handlers('a'), database, 'a').runDue(), runner(handlers('b'), other, 'b').runDue()]);
    expect(a + b).toBe(40);
    expect([...runs.values()].every((who) => who.length === 1)).toBe(true);
    expect(runs.size).toBe(40);
    if (engine === 'postgres') expect(a > 0 && b > 0).toBe(true);
    const states = await database.db
      .select({ state: job.state, n: sql<number>`count(*)::int` })
      .from(job)
      .where(eq(job.kind, 'count'))
      .groupBy(job.state);
    expect(states).toEqual([{ state: 'done', n: 40 }]);
  });

  it('a long job runs on its own lane: a warning queued behind it is run while it still runs', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const begun = new Promise<void>((r) => (started = r));
    const handlers: JobHandlers = {
      'lane.zip': { lane: 'long', run: async () => (started(), held) },
      'lane.warn': { run: async () => {} },
    };
    const lanes = jobLanes(handlers);
    expect(lanes.map((lane) => Object.keys(lane))).toEqual([['lane.warn'], ['lane.zip']]);
    const zip = await enqueue(database.db, 'lane.zip', {}, { now: clock.now() });
    const [quick, long] = lanes.map((lane, i) => runner(lane, database, `lane${i}`));
    const longRun = long!.runDue();
    await begun;
    const warn = await enqueue(database.db, 'lane.warn', {}, { now: clock.now() });
    expect(await quick!.runDue()).toBe(1);
    expect((await row(warn.id)).state).toBe('done');
    expect((await row(zip.id)).state).toBe('running');
    release();
    expect(await longRun).toBe(1);
  });

  it('a job left running by a dead process is taken again once its lease has expired', async () => {
    const { id } = await enqueue(database.db, 'restart', {}, { now: clock.now() });
    // The "crashed" process: it claimed the job and died without finishing it.
    await database.db
      .update(job)
      .set({ state: 'running', lockedby: 'dead', lockeduntil: new Date(clock.now().getTime() + 5 * MINUTE), attempts: 1 })
      .where(eq(job.id, id));
    let ran = 0;
    const w = runner({ restart: { run: async () => void ran++ } });
    expect(await w.runDue()).toBe(0); // lease still held
    clock.advance(5 * MINUTE + 1);
    expect(await w.runDue()).toBe(1);
    expect(ran).toBe(1);
    expect(await row(id)).toMatchObject({ state: 'done', attempts: 2, lockedby: null, progress: 100 });
  });

  it('a job whose worker died on its last attempt is failed for good, and its domain is told', async () => {
    const { id } = await enqueue(database.db, 'lastgasp', { x: 1 }, { now: clock.now(), maxAttempts: 1 });
    await database.db.update(job).set({ state: 'running', lockedby: 'dead', lockeduntil: clock.now(), attempts: 1 }).where(eq(job.id, id));
    clock.advance(1);
    const told: string[] = [];
    const w = runner({
      lastgasp: { run: async () => {}, failed: async (p, _c, error) => void told.push(`${JSON.stringify(p)} ${error}`) },
    });
    expect(await w.runDue()).toBe(0);
    expect(await row(id)).toMatchObject({ state: 'failed', lasterror: expect.stringContaining('lease expired') });
    expect(told).toEqual([expect.stringContaining('{"x":1}')]);
  });

  it('retries with a doubling backoff, then fails with the last error; a non-retryable failure stops at once', async () => {
    let attempts = 0;
    const told: string[] = [];
    const w = runner(
      {
        flaky: {
          run: async () =>
            void (
              attempts++,
              (() => {
                throw new JobFailure(`boom ${attempts}`);
              })()
            ),
          failed: async (_p, _c, e) => void told.push(e),
        },
        fatal: {
          run: async () => {
            throw new JobFailure('bad input', false);
          },
        },
      },
      database,
      'w1',
      { backoffMs: MINUTE },
    );
    const { id } = await enqueue(database.db, 'flaky', {}, { now: clock.now(), maxAttempts: 3 });
    expect(await w.runDue()).toBe(1);
    expect(await row(id)).toMatchObject({ state: 'queued', attempts: 1, lasterror: 'boom 1' });
    clock.advance(MINUTE - 1);
    expect(await w.runDue()).toBe(0); // not due before the backoff
    clock.advance(1);
    expect(await w.runDue()).toBe(1);
    clock.advance(2 * MINUTE - 1);
    expect(await w.runDue()).toBe(0); // the second delay is twice the first
    clock.advance(1);
    expect(await w.runDue()).toBe(1);
    expect(await row(id)).toMatchObject({ state: 'failed', attempts: 3, lasterror: 'boom 3' });
    expect(told).toEqual(['boom 3']);

    const fatal = await enqueue(database.db, 'fatal', {}, { now: clock.now(), maxAttempts: 5 });
    expect(await w.runDue()).toBe(1);
    expect(await row(fatal.id)).toMatchObject({ state: 'failed', attempts: 1, lasterror: 'bad input' });
  });

  it('enqueue is idempotent by dedup key, joins the caller’s transaction and respects runAt', async () => {
    const first = await enqueue(
      database.db,
      'later',
      { a: 1 },
      { now: clock.now(), dedupKey: 'once:1', runAt: new Date(clock.now().getTime() + MINUTE) },
    );
    const again = await enqueue(database.db, 'later', { a: 2 }, { now: clock.now(), dedupKey: 'once:1' });
    expect(again).toEqual({ id: first.id, created: false });
    expect(first.created).toBe(true);

    await expect(
      database.db.transaction(async (tx) => {
        await enqueue(tx, 'later', {}, { now: clock.now(), dedupKey: 'rolledback' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await database.db.select().from(job).where(eq(job.dedupkey, 'rolledback'))).toEqual([]);

    const seen: unknown[] = [];
    const w = runner({ later: { run: async (p, ctx) => (seen.push(p), ctx.progress(50)) } });
    expect(await w.runDue()).toBe(0);
    clock.advance(MINUTE);
    expect(await w.runDue()).toBe(1);
    expect(seen).toEqual([{ a: 1 }]);
  });

  it('a housekeeping kind runs once a period: queued at start (by any number of processes), the next period queued as each run begins, even one that fails', async () => {
    const HOUR = 60 * MINUTE;
    const slots: number[] = [];
    let fail = true;
    const handlers: JobHandlers = {
      tidy: {
        every: HOUR,
        run: async ({ slot }: { slot: number }) => {
          slots.push(slot);
          if (fail) throw new JobFailure('not today', false);
        },
      },
    };
    await startPeriodic(database.db, handlers, clock.now());
    await startPeriodic(other.db, handlers, clock.now()); // a second server process: the same job
    const w = runner(handlers);
    expect(await w.runDue()).toBe(1);
    expect(await w.runDue()).toBe(0); // the next period's is not due yet
    fail = false;
    clock.advance(HOUR);
    expect(await w.runDue()).toBe(1); // queued although the last run failed for good
    clock.advance(HOUR);
    expect(await w.runDue()).toBe(1);
    const start = Math.floor(slots[0]! / HOUR) * HOUR;
    expect(slots).toEqual([start, start + HOUR, start + 2 * HOUR]);
  });

  it('a runner only takes the kinds it has handlers for; stopping puts a job in flight back without counting it', async () => {
    const { id } = await enqueue(database.db, 'slow', {}, { now: clock.now() });
    expect(await runner({ other: { run: async () => {} } }).runDue()).toBe(0);
    let release!: () => void;
    const started = new Promise<void>((r) => (release = r));
    const w = runner({
      slow: {
        run: (_p, ctx) =>
          new Promise((_resolve, reject) => {
            release();
            ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
          }),
      },
    });
    const running = w.runDue();
    await started;
    await w.stop();
    await running;
    expect(await row(id)).toMatchObject({ state: 'queued', attempts: 0, lockedby: null });
    expect(await runner({ slow: { run: async () => {} } }).runDue()).toBe(1);
  });
});
