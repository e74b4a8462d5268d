import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../config.js';
import { migrationsFolder, openDatabase, type Db } from '../db/database.js';
import { admin, withDatabase } from '../db/admin.js';
import { installKeys } from '../encryption.js';
import { newDataKeyText } from '../kit/crypt/index.js';
import { engines, startTestServer, TEST_EPOCH, type Engine, type TestServer } from '../test/harness.js';
import { BackupError, restoreBackup, writeBackup, type Manifest, type Place } from './backup.js';

/**
 * Issue 32 §1: a backup taken while requests write restores into an empty database with every
 * table equal; an older schema's backup restores and migrates; a non-empty target, a damaged
 * archive and a wrong data key are refused with nothing changed.
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-backup-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const scratch = (name: string) => fs.mkdtempSync(path.join(tmp, `${name}-`));

/** The rows of one statement (Db.execute's result type is the engine's). */
async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Every table's row count and md5 of its sorted rows, read here independently of ops/backup.ts. */
async function tables(db: Db): Promise<Record<string, { rows: number; sum: string }>> {
  const names = await rows<{ s: string; t: string }>(
    db,
    sql.raw(
      `select table_schema as s, table_name as t from information_schema.tables where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle')`,
    ),
  );
  const out: Record<string, { rows: number; sum: string }> = {};
  for (const { s, t } of names) {
    const [r] = await rows<{ n: number; sum: string }>(
      db,
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(j, ',' order by j), '')) as sum from (select row_to_json(x)::text as j from "${s}"."${t}" x) y`,
      ),
    );
    out[`${s}.${t}`] = { rows: Number(r!.n), sum: r!.sum };
  }
  return out;
}

/** An empty target of the engine: a new data folder, or a new database on the test server. */
async function emptyTarget(engine: Engine, name: string): Promise<Place & { drop(): Promise<void> }> {
  const filesDir = scratch(`${name}-files`);
  if (engine === 'pglite') return { dataDir: path.join(scratch(name), 'data'), filesDir, drop: async () => {} };
  const base = process.env.TEST_DATABASE_URL!;
  const db = `xinli_t_${process.ppid}_${randomBytes(4).toString('hex')}`;
  await admin(base, `CREATE DATABASE ${db}`);
  return {
    url: withDatabase(base, db),
    dataDir: scratch(name),
    filesDir,
    drop: () => admin(base, `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`),
  };
}

/** Opens a restored target to look at it. */
async function opened(place: Place) {
  return openDatabase({ url: place.url, dataDir: place.url ? undefined : place.dataDir, migrate: false });
}

const pgliteOf = (s: TestServer) => (s.database.db as unknown as { $client: PGlite }).$client;

describe.each(engines('both'))('backup and restore on %s', (engine) => {
  let s: TestServer;
  let source: Place;
  let archive: string;
  let manifest: Manifest;
  let before: Awaited<ReturnType<typeof tables>>;
  let after: Awaited<ReturnType<typeof tables>>;
  const config = testConfig();

  beforeAll(async () => {
    s = await startTestServer(engine);
    const filesDir = scratch('source-files');
    fs.mkdirSync(path.join(filesDir, 'ab'));
    fs.writeFileSync(path.join(filesDir, 'ab/abc.png'), randomBytes(5000));
    fs.writeFileSync(path.join(filesDir, 'note.txt'), '心理测评 report');
    source = { url: (s.database as { url?: string }).url, dataDir: scratch('source'), filesDir };
    archive = path.join(tmp, `${engine}.zip`);

    before = await tables(s.database.db);
    // Sign-ins write sessions and audit entries, from other client addresses, until the backup is done.
    let writing = true;
    let signIns = 0;
    const writer = (async () => {
      while (writing) await s.login('admin', undefined, `10.9.${Math.floor(signIns / 200)}.${signIns++ % 200}`);
    })();
    await s.login('school', undefined, '10.8.0.1');
    manifest = await writeBackup(archive, source, { now: s.clock.now(), pglite: engine === 'pglite' ? pgliteOf(s) : undefined });
    writing = false;
    await writer;
    expect(signIns).toBeGreaterThan(0);
    after = await tables(s.database.db);
  });
  afterAll(() => s?.close());

  it('writes a manifest: time, version, migration, every table counted, checksums, and the key left out', () => {
    expect(manifest.createdAt).toBe(new Date(TEST_EPOCH).toISOString());
    expect(manifest.engine).toBe(engine);
    expect(manifest.appVersion).toMatch(/^\d+\.\d+\.\d+/);
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    expect(manifest.migration).toEqual({ id: journal.entries.at(-1)!.tag, applied: journal.entries.length });
    expect(Object.keys(manifest.tables).sort()).toEqual(Object.keys(before).sort());
    expect(manifest.parts.map((p) => p.name).sort()).toEqual([
      engine === 'pglite' ? 'database/pgdata.tar' : 'database/postgres.pgdump',
      'files/ab/abc.png',
      'files/note.txt',
    ]);
    for (const part of manifest.parts) expect(part.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.files).toEqual({ storage: 'disk', count: 2 });
    expect(manifest.dataKey.included).toBe(false);
    expect(manifest.dataKey.note).toMatch(/NOT in this backup/);
    expect(manifest.dataKey.check).toBeTruthy();
    if (engine === 'postgres') expect(manifest.pgDump?.major).toBeGreaterThanOrEqual(15);
  });

  it('restores into an empty database: every table as in the snapshot, the files back', async () => {
    const target = await emptyTarget(engine, 'restored');
    try {
      const result = await restoreBackup(archive, target, config);
      expect(result).toMatchObject({ files: 2, migrated: 0 });
      const restored = await opened(target);
      const now = await tables(restored.db);
      await restored.close();
      expect(Object.keys(now).sort()).toEqual(Object.keys(before).sort());
      for (const [name, t] of Object.entries(now)) {
        // The manifest's count was read in the snapshot the dump was taken in.
        expect(t.rows, name).toBe(manifest.tables[name]!.rows);
        // A table the sign-ins did not touch is the source's, row for row; one they wrote holds a moment between.
        if (before[name]!.sum === after[name]!.sum) expect(t, name).toEqual(before[name]);
        else {
          expect(t.rows, name).toBeGreaterThanOrEqual(before[name]!.rows);
          expect(t.rows, name).toBeLessThanOrEqual(after[name]!.rows);
        }
      }
      expect(Object.entries(before).filter(([name]) => before[name]!.sum !== after[name]!.sum).length).toBeGreaterThan(0);
      expect(fs.readFileSync(path.join(target.filesDir!, 'note.txt'), 'utf8')).toBe('心理测评 report');
      expect(fs.readFileSync(path.join(target.filesDir!, 'ab/abc.png'))).toEqual(
        fs.readFileSync(path.join(source.filesDir!, 'ab/abc.png')),
      );

      // Now it is not empty: refused, nothing changed; --force replaces it.
      await expect(restoreBackup(archive, target, config)).rejects.toThrow(/not empty.*--force.*nothing was changed/);
      const again = await restoreBackup(archive, target, config, { force: true });
      expect(again.files).toBe(2);
    } finally {
      await target.drop();
    }
  });

  it('refuses a damaged archive with nothing changed', async () => {
    const damaged = path.join(tmp, `${engine}-damaged.zip`);
    const bytes = fs.readFileSync(archive);
    // A byte inside the database part, the first and by far the largest entry.
    bytes[Math.floor(bytes.length / 3)] ^= 0xff;
    fs.writeFileSync(damaged, bytes);
    const target = await emptyTarget(engine, 'damaged');
    try {
      await expect(restoreBackup(damaged, target, config)).rejects.toThrow(/damaged.*nothing was changed/);
      fs.writeFileSync(damaged, bytes.subarray(0, bytes.length - 100));
      await expect(restoreBackup(damaged, target, config)).rejects.toThrow(/damaged.*nothing was changed/);
      fs.writeFileSync(damaged, 'not a zip');
      await expect(restoreBackup(damaged, target, config)).rejects.toBeInstanceOf(BackupError);
      expect(fs.existsSync(target.dataDir) && fs.readdirSync(target.dataDir).length ? 'touched' : 'untouched').toBe('untouched');
      expect(fs.readdirSync(target.filesDir!)).toEqual([]);
      if (target.url) {
        const c = await opened(target);
        expect((await rows(c.db, sql`select count(*)::int as n from pg_tables where schemaname = 'public'`))[0]).toEqual({ n: 0 });
        await c.close();
      }
    } finally {
      await target.drop();
    }
  });

  it('refuses a restore under another data key, before anything changes', async () => {
    const target = await emptyTarget(engine, 'wrongkey');
    try {
      await expect(restoreBackup(archive, target, testConfig({ dataKeys: { current: newDataKeyText(), previous: [] } }))).rejects.toThrow(
        /not the key this backup was sealed under/,
      );
      expect(fs.existsSync(target.dataDir) && fs.readdirSync(target.dataDir).length ? 'touched' : 'untouched').toBe('untouched');
    } finally {
      installKeys(config);
      await target.drop();
    }
  });
});

describe.each(engines('both'))('a backup of an older schema on %s', (engine) => {
  it('restores and runs the migrations since', async () => {
    // The migrations up to 0033 (before field encryption), as a database of that version had them.
    const older = scratch('migrations');
    fs.cpSync(migrationsFolder, older, { recursive: true });
    const journalFile = path.join(older, 'meta/_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
    const total = journal.entries.length;
    journal.entries = journal.entries.filter((e) => e.idx <= 33);
    fs.writeFileSync(journalFile, JSON.stringify(journal));

    const source = await emptyTarget(engine, 'older');
    let client: PGlite | undefined;
    let db: Db;
    let close: () => Promise<void>;
    if (engine === 'pglite') {
      client = await PGlite.create();
      db = drizzlePglite(client) as unknown as Db;
      await migratePglite(db as never, { migrationsFolder: older });
      close = () => client!.close();
    } else {
      const d = await openDatabase({ url: source.url, migrate: false });
      await migratePg(d.db as never, { migrationsFolder: older });
      db = d.db;
      close = () => d.close();
    }
    await db.execute(
      sql`insert into muser (musercode, username, pwdhash, musertype, createdat) values ('OLD1', 'oldschool', 'x', '001', ${new Date(TEST_EPOCH)})`,
    );
    const file = path.join(tmp, `${engine}-older.zip`);
    const manifest = await writeBackup(file, source, { now: new Date(TEST_EPOCH), pglite: client });
    await close();
    expect(manifest.migration).toEqual({ id: journal.entries.at(-1)!.tag, applied: 34 });
    expect(manifest.dataKey.check).toBeNull();

    const target = await emptyTarget(engine, 'older-restored');
    try {
      const result = await restoreBackup(file, target, testConfig());
      expect(result.migrated).toBe(total - 34);
      const restored = await opened(target);
      const names = await rows(restored.db, sql`select username from muser`);
      const applied = (await rows(restored.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0];
      const newer = (
        await rows(restored.db, sql`select count(*)::int as n from information_schema.tables where table_name = 'data_key'`)
      )[0];
      await restored.close();
      expect(names).toEqual([{ username: 'oldschool' }]);
      expect(applied).toEqual({ n: total });
      expect(newer).toEqual({ n: 1 });
    } finally {
      await source.drop();
      await target.drop();
    }
  });
});
