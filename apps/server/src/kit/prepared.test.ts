import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/database.js';
import { engines, freshDatabase } from '../test/harness.js';
import { app } from '../domains/apps/tables.js';
import { auditLog } from '../domains/audit/tables.js';
import {
  placeholderRow,
  preparedForKeys,
  preparedOnce,
  preparedRows,
  rowValues,
  statementsByShape,
  statementsForKeys,
} from './prepared.js';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The named statements this connection holds (PostgreSQL only; PGlite sends every statement unnamed). */
async function preparedNamed(tx: DbOrTx, prefix: string): Promise<string[]> {
  const found = rowsOf<{ name: string }>(
    await tx.execute(sql`select name from pg_prepared_statements where starts_with(name, ${prefix}) order by name`),
  );
  return found.map((r) => r.name);
}

describe.each(engines('both'))('prepared statements (%s)', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(engine);
    await database.db.insert(app).values(Array.from({ length: 7 }, (_, i) => ({ appid: `Q${i}`, appname: `app ${i}`, sort: i })));
  });
  afterAll(() => database?.close());

  it('builds a fixed statement once, and runs it on the database and inside a transaction', async () => {
    let built = 0;
    const named = preparedOnce('kit_apps_of', (db, name) => {
      built++;
      return db
        .select({ appid: app.appid })
        .from(app)
        .where(sql`${app.appid} = any(${sql.placeholder('ids')})`)
        .orderBy(asc(app.appid))
        .prepare(name);
    });
    const statement = named(database.db);
    expect(await statement.execute({ ids: ['Q3', 'Q1', 'none'] })).toEqual([{ appid: 'Q1' }, { appid: 'Q3' }]);
    expect(named(database.db)).toBe(statement);
    expect(await named(database.db).execute({ ids: [] })).toEqual([]);
    // Inside a transaction it is the same statement on the transaction's connection: it sees the
    // transaction's own row, which is gone after the rollback.
    await database.db
      .transaction(async (tx) => {
        await tx.insert(app).values({ appid: 'QT', appname: 'in the transaction', sort: 99 });
        expect(await named(tx).execute({ ids: ['QT', 'Q2'] })).toEqual([{ appid: 'Q2' }, { appid: 'QT' }]);
        tx.rollback();
      })
      .catch((e: Error) => expect(e.message).toMatch(/rollback/i));
    expect(await named(database.db).execute({ ids: ['QT'] })).toEqual([]);
    expect(built).toBe(1);
  });

  it('binds each statement of a set to the transaction that runs it', async () => {
    const set = statementsByShape('kit_apps_set', (db, _shape: object, name) => ({
      name,
      one: db
        .select({ appid: app.appid })
        .from(app)
        .where(eq(app.appid, sql.placeholder('id')))
        .prepare(name),
      count: db
        .select({ n: sql<number>`count(*)::int` })
        .from(app)
        .prepare(`${name}_n`),
    }));
    const before = (await set(database.db, {}).count.execute({}))[0]!.n;
    await database.db
      .transaction(async (tx) => {
        await tx.insert(app).values({ appid: 'QS', appname: 'in the transaction', sort: 98 });
        const bound = set(tx, {});
        expect(bound.name).toBe(set(database.db, {}).name);
        expect(set(tx, {})).toBe(bound);
        expect(await bound.one.execute({ id: 'QS' })).toEqual([{ appid: 'QS' }]);
        expect((await bound.count.execute({}))[0]!.n).toBe(before + 1);
        tx.rollback();
      })
      .catch((e: Error) => expect(e.message).toMatch(/rollback/i));
    expect((await set(database.db, {}).count.execute({}))[0]!.n).toBe(before);
  });

  it('reads the rows of no key, one key and many, in each shape', async () => {
    const appsOf = statementsForKeys('kit_apps_keyed', (db, { desc: down }: { desc: boolean }, name, keyIs) =>
      db
        .select({ appid: app.appid })
        .from(app)
        .where(keyIs(app.appid))
        .orderBy(down ? sql`${app.appid} desc` : asc(app.appid))
        .prepare(name),
    );
    const db = database.db;
    expect(await appsOf(db, { desc: false }, ['Q3', 'Q1', 'none'])).toEqual([{ appid: 'Q1' }, { appid: 'Q3' }]);
    expect(await appsOf(db, { desc: true }, ['Q3', 'Q1'])).toEqual([{ appid: 'Q3' }, { appid: 'Q1' }]);
    expect(await appsOf(db, { desc: false }, ['Q6'])).toEqual([{ appid: 'Q6' }]);
    expect(await appsOf(db, { desc: false }, ['none'])).toEqual([]);
    expect(await appsOf(db, { desc: false }, [])).toEqual([]);
  });

  it('inserts a few rows by a statement prepared per number of rows, and many at once', async () => {
    const insert = preparedRows('kit_audit_rows', auditLog, [
      'at',
      'musercode',
      'userid',
      'actor',
      'action',
      'result',
      'detail',
      'ip',
      'requestid',
    ]);
    const at = new Date('2026-11-21T08:00:00Z');
    const entry = (i: number) => ({
      at,
      musercode: 'KM',
      userid: i % 2 ? null : `U${i}`,
      actor: null,
      action: `kit.rows.${i}`,
      result: 'ok',
      detail: { i, nested: { zh: '中' } },
      ip: '127.0.0.1',
      requestid: `R${i}`,
    });
    await database.db.transaction(async (tx) => {
      await insert(tx, [entry(1)]);
      await insert(tx, [entry(2), entry(3), entry(4)]);
      await insert(tx, [entry(5)]);
      await insert(
        tx,
        Array.from({ length: 20 }, (_, i) => entry(10 + i)),
      );
      await insert(tx, []);
      // One statement per number of rows, kept by the connection (PostgreSQL names them).
      if (engine === 'postgres') expect(await preparedNamed(tx, 'kit_audit_rows')).toHaveLength(2);
    });
    const stored = await database.db
      .select()
      .from(auditLog)
      .where(sql`starts_with(${auditLog.action}, 'kit.rows.')`)
      .orderBy(asc(auditLog.seq));
    expect(stored.map((r) => r.action)).toEqual(
      [1, 2, 3, 4, 5, ...Array.from({ length: 20 }, (_, i) => 10 + i)].map((i) => `kit.rows.${i}`),
    );
    expect(stored[1]).toMatchObject({
      at,
      musercode: 'KM',
      userid: 'U2',
      actor: null,
      result: 'ok',
      detail: { i: 2, nested: { zh: '中' } },
      requestid: 'R2',
    });
    expect(stored[0]!.userid).toBeNull();
    // The chain's trigger saw each row as inserted: every one has its place and hash.
    expect(stored.every((r) => r.seq > 0 && r.hash.length === 64)).toBe(true);
  });
});

// PGlite sends every statement unnamed; PostgreSQL keeps a named one per connection, and its plan.
describe.runIf(engines().includes('postgres'))('prepared statements on PostgreSQL', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    await database.db.insert(app).values(Array.from({ length: 7 }, (_, i) => ({ appid: `Q${i}`, appname: `app ${i}`, sort: i })));
  });
  afterAll(() => database?.close());

  it('reads one key by a statement PostgreSQL stops planning after a few runs', async () => {
    const appOf = preparedForKeys('kit_apps_planned', (db, name, keyIs) =>
      db.select({ appid: app.appid }).from(app).where(keyIs(app.appid)).prepare(name),
    );
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < 8; i++) expect(await appOf(tx, [`Q${i % 7}`])).toEqual([{ appid: `Q${i % 7}` }]);
      for (let i = 0; i < 8; i++) expect(await appOf(tx, ['Q1', `Q${i % 7}`])).not.toEqual([]);
      const plans = rowsOf<{ name: string; generic_plans: string; custom_plans: string }>(
        await tx.execute(sql`select name, generic_plans, custom_plans from pg_prepared_statements where name like 'kit_apps_planned%'`),
      );
      expect(plans).toHaveLength(2);
      // The one-key statement runs on its generic plan after five planned runs; the many-key one
      // (= any) is planned at every run, as the comment of statementsForKeys says.
      const [one, many] = [...plans].sort((a, b) => Number(b.generic_plans) - Number(a.generic_plans));
      expect(Number(one!.generic_plans)).toBeGreaterThanOrEqual(3);
      expect(Number(one!.custom_plans)).toBeLessThanOrEqual(5);
      expect(Number(many!.custom_plans)).toBe(8);
    });
  });
});

describe('statementsByShape', () => {
  let database: Database;
  beforeAll(async () => (database = await freshDatabase('pglite')));
  afterAll(() => database?.close());

  it('keeps at most 256 shapes, dropping the oldest', () => {
    let built = 0;
    const list = statementsByShape('kit_many', (_db, shape: { n: number }, name) => (built++, { shape, name }));
    const first = list(database.db, { n: 0 });
    for (let n = 1; n <= 256; n++) list(database.db, { n });
    expect(built).toBe(257);
    // The newest are kept; the first was dropped, and is built again (under the same name) when asked.
    expect(list(database.db, { n: 256 }).shape.n).toBe(256);
    expect(built).toBe(257);
    const again = list(database.db, { n: 0 });
    expect(built).toBe(258);
    expect(again).not.toBe(first);
    expect(again.name).toBe(first.name);
  });
});

describe('placeholderRow and rowValues', () => {
  it('name a row of placeholders per column and row, and give every one a value', () => {
    const row = placeholderRow(['a', 'b'], 2);
    expect(Object.keys(row)).toEqual(['a', 'b']);
    expect(row.a.name).toBe('a_2');
    expect(rowValues(['a', 'b'], [{ a: 1 }, { a: 0, b: 'x' }])).toEqual({ a_0: 1, b_0: null, a_1: 0, b_1: 'x' });
  });
});
