import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { freshDatabase } from '../test/harness.js';
import { statementsSent } from '../test/statements.js';
import { muser } from '../domains/accounts/tables.js';
import { app, muserApp } from '../domains/apps/tables.js';
import { countRows, offsetOf, paged, pageOfArray, pageThrough, totalColumn } from './paging.js';
import { statementsByShape } from './prepared.js';

describe('pageOfArray', () => {
  const all = [1, 2, 3, 4, 5];
  it('cuts one page and counts the whole list', () => {
    expect(offsetOf({ page: 3, pageSize: 10 })).toBe(20);
    expect(pageOfArray(all, { page: 1, pageSize: 2 })).toEqual({ total: 5, rows: [1, 2] });
    expect(pageOfArray(all, { page: 3, pageSize: 2 })).toEqual({ total: 5, rows: [5] });
    expect(pageOfArray(all, { page: 4, pageSize: 2 })).toEqual({ total: 5, rows: [] });
  });
});

describe('paged', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase('pglite');
    const db = database.db;
    await db.insert(app).values(Array.from({ length: 7 }, (_, i) => ({ appid: `K${i}`, appname: `app ${i}`, sort: 7 - i })));
    await db.insert(muser).values({ musercode: 'KM1', username: 'kit-paging', pwdhash: 'x', musertype: '001' });
    await db.insert(muserApp).values(['K1', 'K2', 'K3'].map((appid) => ({ musercode: 'KM1', appid })));
  });
  afterAll(() => database?.close());

  it('answers one page in order and the total of the whole query', async () => {
    const db = database.db;
    const query = () => db.select({ appid: app.appid }).from(app).where(sql`${app.appid} like 'K%'`).$dynamic();
    expect(await paged(db, query(), [asc(app.sort), asc(app.appid)], { page: 1, pageSize: 3 })).toEqual({ total: 7, rows: [{ appid: 'K6' }, { appid: 'K5' }, { appid: 'K4' }] });
    expect(await paged(db, query(), [asc(app.sort), asc(app.appid)], { page: 3, pageSize: 3 })).toEqual({ total: 7, rows: [{ appid: 'K0' }] });
    expect(await paged(db, query(), [asc(app.sort)], { page: 9, pageSize: 3 })).toEqual({ total: 7, rows: [] });
  });

  it('sends one statement for a page with rows, and counts an empty page past the end', async () => {
    const db = database.db;
    const sent: string[] = [];
    const sending = async (run: () => Promise<unknown>) => sent.push(...(await statementsSent(db, run)));
    const apps = () => db.select({ appid: app.appid }).from(app).where(sql`${app.appid} like 'K%'`).$dynamic();
    await sending(async () => expect((await paged(db, apps(), [asc(app.appid)], { page: 2, pageSize: 5 })).total).toBe(7));
    expect(sent).toHaveLength(1);
    // Past the end: no row carries the total, so it is counted apart; an empty first page is empty.
    await sending(async () => expect(await paged(db, apps(), [asc(app.appid)], { page: 3, pageSize: 5 })).toEqual({ total: 7, rows: [] }));
    expect(sent).toHaveLength(3);
    const none = db.select({ appid: app.appid }).from(app).where(sql`false`).$dynamic();
    await sending(async () => expect(await paged(db, none, [asc(app.appid)], { page: 1, pageSize: 5 })).toEqual({ total: 0, rows: [] }));
    expect(sent).toHaveLength(4);
  });

  it('counts joined queries whose columns share names, and computed columns', async () => {
    const db = database.db;
    const query = db
      .select({ link: muserApp, app, n: sql<number>`(select count(*)::int from muser_app m where m.appid = app.appid)` })
      .from(muserApp)
      .innerJoin(app, eq(app.appid, muserApp.appid))
      .where(eq(muserApp.musercode, 'KM1'))
      .$dynamic();
    const page = await paged(db, query, [asc(app.appid)], { page: 2, pageSize: 2 });
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => [r.link.appid, r.app.appname, r.n])).toEqual([['K3', 'app 3', 1]]);
  });

  it('counts the rows of a table that match', async () => {
    const db = database.db;
    expect(await countRows(db, muserApp, eq(muserApp.musercode, 'KM1'))).toBe(3);
    expect(await countRows(db, muserApp, eq(muserApp.musercode, 'nobody'))).toBe(0);
    await db.transaction(async (tx) => expect(await countRows(tx, app, sql`${app.appid} like 'K%'`)).toBe(7));
  });

  it('pages through prepared statements built once per shape, whatever the values', async () => {
    const db = database.db;
    let built = 0;
    const list = statementsByShape('kit_apps', (db, shape: { sorted: boolean }, name) => {
      built++;
      const where = sql`${app.appid} like ${sql.placeholder('prefix')}`;
      const matching = db.select({ n: count() }).from(app).where(where);
      return {
        name,
        count: matching.prepare(`${name}_n`),
        rows: db
          .select({ appid: app.appid, total: totalColumn(matching) })
          .from(app)
          .where(where)
          .orderBy(shape.sorted ? asc(app.sort) : asc(app.appid))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset'))
          .prepare(name),
      };
    });
    const byCode = list(db, { sorted: false });
    expect(await pageThrough(byCode, { prefix: 'K%' }, { page: 1, pageSize: 2 })).toEqual({ total: 7, rows: [{ appid: 'K0' }, { appid: 'K1' }] });
    // The same shape with other values: the same statements, bound to the new values.
    expect(list(db, { sorted: false })).toBe(byCode);
    expect(await pageThrough(byCode, { prefix: 'K6%' }, { page: 1, pageSize: 2 })).toEqual({ total: 1, rows: [{ appid: 'K6' }] });
    expect(await pageThrough(byCode, { prefix: 'K%' }, { page: 5, pageSize: 2 })).toEqual({ total: 7, rows: [] });
    expect(await pageThrough(byCode, { prefix: 'none%' }, { page: 1, pageSize: 2 })).toEqual({ total: 0, rows: [] });
    // Another shape: its own statements, under a name of their own (one name cannot hold two texts).
    const bySort = list(db, { sorted: true });
    expect(bySort.name).not.toBe(byCode.name);
    expect((await pageThrough(bySort, { prefix: 'K%' }, { page: 1, pageSize: 2 })).rows).toEqual([{ appid: 'K6' }, { appid: 'K5' }]);
    expect(built).toBe(2);
  });
});
