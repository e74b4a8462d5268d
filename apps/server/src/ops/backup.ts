/**
 * Backup and restore (issue 32 §1, README "Running in production"): `npm run backup -- <file>` and
 * `npm run restore -- <file>` on the database DATA_DIR or DATABASE_URL names and its disk file store.
 *
 * The database part is a consistent snapshot taken while the server runs: on PostgreSQL `pg_dump`
 * runs in a snapshot this module exports from a repeatable-read transaction, and the manifest's row
 * counts and row checksums are read in that same snapshot; on the embedded PGlite the data folder is
 * dumped between two queries (PGlite runs one at a time; committed work is in the write-ahead log,
 * an open transaction is rolled back when the dump is opened) and the counts are read from the dump
 * itself. The data key is never in the archive: the manifest carries a sealed value (the stored
 * blind-index key) so that a restore under another key is refused before anything changes.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import tar from 'tar-stream';
import type { Config } from '../config.js';
import { migrationsFolder, openDatabase, runMigrations } from '../db/database.js';
import { installKeys } from '../encryption.js';
import { open } from '../kit/crypt/index.js';
import { ArchiveWriter, BackupError, eachEntry, saveEntry, verifyArchive, type Part } from './archive.js';

export { BackupError } from './archive.js';

const run = promisify(execFile);

export const KEY_NOTE =
  'The data key (DATA_KEY, DATA_KEY_FILE, or DATA_DIR/data.key of the embedded database) is NOT in this backup. Sealed fields (names, phone and ID numbers, answers, …) cannot be read without it: keep it apart from the backups, and restore with the same key.';

export interface TableStat {
  rows: number;
  /** md5 over the sorted md5s of the table's rows as text (TimeZone UTC): equal tables have equal checksums. */
  checksum: string;
}

export interface Manifest {
  format: 'xinli-backup/1';
  createdAt: string;
  appVersion: string;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL's version (PGlite's embedded one for the embedded database). */
  serverVersion: string;
  /** The pg_dump that wrote the database part (PostgreSQL only); pg_restore must be this major version or newer. */
  pgDump?: { version: string; major: number };
  /** The last migration applied (its drizzle tag) and how many were. */
  migration: { id: string; applied: number };
  tables: Record<string, TableStat>;
  parts: Part[];
  files: { storage: 'disk' | 's3'; count: number; note?: string };
  dataKey: { included: false; note: string; /** A value sealed under the key, to recognise it on restore. */ check: string | null };
}

/** Where a database and its files are: from the configuration, or given by a test. */
export interface Place {
  /** PostgreSQL; absent: the embedded PGlite at dataDir. */
  url?: string;
  dataDir: string;
  /** The disk file store; absent when files are kept in S3 (backed up apart, README). */
  filesDir?: string;
}

export function placeOf(config: Config): Place {
  return {
    url: config.databaseUrl,
    dataDir: config.dataDir,
    filesDir: config.files.storage === 's3' ? undefined : (config.files.dir ?? path.join(config.dataDir, 'files')),
  };
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

const DB_PART = { pglite: 'database/pgdata.tar', postgres: 'database/postgres.pgdump' } as const;

/**
 * Writes a backup of `place` to `file`. `pglite` is the embedded database's open client when the
 * caller has it (the running server, a test); otherwise a running server is asked for a dump
 * through its local socket, and without one the data folder is opened here.
 */
export async function writeBackup(file: string, place: Place, opts: { now: Date; pglite?: PGlite }): Promise<Manifest> {
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'xinli-backup-'));
  const archive = new ArchiveWriter(file);
  try {
    const engine = place.url ? 'postgres' : 'pglite';
    const dbFile = path.join(tmp, 'database');
    const snap = place.url ? await dumpPostgres(place.url, dbFile) : await dumpPglite(place.dataDir, dbFile, opts.pglite);
    await archive.add(DB_PART[engine], fs.createReadStream(dbFile), engine === 'pglite');
    let count = 0;
    if (place.filesDir) for (const rel of await listFiles(place.filesDir)) if (await addFile(archive, place.filesDir, rel)) count++;
    const manifest: Manifest = {
      format: 'xinli-backup/1',
      createdAt: opts.now.toISOString(),
      appVersion: appVersion(),
      engine,
      serverVersion: snap.serverVersion,
      ...(snap.pgDump ? { pgDump: snap.pgDump } : {}),
      migration: snap.migration,
      tables: snap.tables,
      parts: archive.parts,
      files: place.filesDir
        ? { storage: 'disk', count }
        : {
            storage: 's3',
            count: 0,
            note: 'Files are kept in S3 and are not in this archive: back the bucket up with versioning or replication (README "Running in production").',
          },
      dataKey: { included: false, note: KEY_NOTE, check: snap.keyCheck },
    };
    await archive.finish(manifest);
    return manifest;
  } catch (e) {
    await archive.abandon();
    throw e;
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

/** Adds one stored file; a file removed since it was listed is skipped (answers false). */
async function addFile(archive: ArchiveWriter, dir: string, rel: string): Promise<boolean> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path.join(dir, rel));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  await archive.add(`files/${rel.split(path.sep).join('/')}`, handle.createReadStream());
  return true;
}

async function listFiles(dir: string): Promise<string[]> {
  if (!fs.existsSync(dir)) return [];
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

interface Snapshot {
  serverVersion: string;
  pgDump?: { version: string; major: number };
  migration: { id: string; applied: number };
  tables: Record<string, TableStat>;
  keyCheck: string | null;
}

/** Row counts and checksums of every table, the migration state and the key check, read through `q` in one snapshot. */
async function readSnapshot(q: Query): Promise<Omit<Snapshot, 'pgDump'>> {
  const [version] = await q(`select current_setting('server_version') as v`);
  const tables: Record<string, TableStat> = {};
  const names = await q(
    `select table_schema as s, table_name as t from information_schema.tables where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1, 2`,
  );
  for (const { s, t } of names as { s: string; t: string }[]) {
    const [r] = await q(
      `select count(*)::int as n, coalesce(md5(string_agg(h, '' order by h)), '') as sum from (select md5(x::text) as h from "${s}"."${t}" x) y`,
    );
    tables[`${s}.${t}`] = { rows: Number(r!.n), checksum: String(r!.sum) };
  }
  const hasKeyTable = 'public.data_key' in tables;
  const [key] = hasKeyTable ? await q(`select value from data_key where name = 'blind-index'`) : [];
  return {
    serverVersion: String(version!.v),
    migration: await migrationState(q, 'drizzle.__drizzle_migrations' in tables),
    tables,
    keyCheck: key ? String(key.value) : null,
  };
}

/** The last applied migration's tag (drizzle keeps each migration's journal time as created_at). */
async function migrationState(q: Query, hasTable: boolean): Promise<{ id: string; applied: number }> {
  if (!hasTable) return { id: 'none', applied: 0 };
  const rows = await q(`select created_at from drizzle.__drizzle_migrations order by created_at`);
  const last = rows.at(-1);
  if (!last) return { id: 'none', applied: 0 };
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  const tag = journal.entries.find((e) => e.when === Number(last.created_at))?.tag ?? `unknown (${String(last.created_at)})`;
  return { id: tag, applied: rows.length };
}

function appVersion(): string {
  const pkg = [path.resolve(import.meta.dirname, '../../package.json'), path.resolve(import.meta.dirname, '../package.json')].find((p) =>
    fs.existsSync(p),
  );
  return pkg ? String((JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version?: string }).version) : 'unknown';
}

// ---------- PostgreSQL ----------

/** pg_dump in a snapshot exported from this transaction; the manifest's figures are read in the same snapshot. */
async function dumpPostgres(url: string, target: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET LOCAL TIME ZONE 'UTC'`);
    await client.query(`SET LOCAL DateStyle = 'ISO, YMD'`);
    const major = await serverMajor(client);
    const tool = await pgTool('pg_dump', major);
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const conn = connectionArgs(url);
    // Custom format: compressed, and pg_restore can restore it in one transaction.
    const dumped = run(
      tool.bin,
      ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${rows[0]!.id}`, `--file=${target}`, ...conn.args],
      { env: conn.env },
    ).catch((e: { stderr?: string }) => {
      throw new BackupError(`pg_dump failed: ${(e.stderr ?? String(e)).trim()}`);
    });
    const snap = await readSnapshot(async (text) => (await client.query(text)).rows as Record<string, unknown>[]);
    await dumped;
    await client.query('COMMIT');
    return { ...snap, pgDump: { version: tool.version, major: tool.major } };
  } finally {
    await client.end();
  }
}

async function serverMajor(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: string }>(`select current_setting('server_version_num') as n`);
  return Math.floor(Number(rows[0]!.n) / 10000);
}

/** The URL without its password (which goes in PGPASSWORD): a password on a command line is visible to every user of the machine. */
function connectionArgs(url: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { args: [`--dbname=${u.toString()}`], env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/**
 * A PostgreSQL client tool of at least `major` (pg_dump refuses a newer server; pg_restore may not read
 * a newer dump): PG_BIN_DIR first, then Debian's /usr/lib/postgresql/<major>/bin, then PATH.
 */
async function pgTool(name: 'pg_dump' | 'pg_restore', major: number): Promise<{ bin: string; version: string; major: number }> {
  const candidates = [
    process.env.PG_BIN_DIR && path.join(process.env.PG_BIN_DIR, name),
    `/usr/lib/postgresql/${major}/bin/${name}`,
    name,
  ].filter(Boolean) as string[];
  let found = '';
  for (const bin of candidates) {
    const version = await run(bin, ['--version']).then(
      (r) => /(\d+)(\.\d+)?/.exec(r.stdout)?.[0] ?? '',
      () => '',
    );
    if (!version) continue;
    const toolMajor = Number.parseInt(version, 10);
    if (toolMajor >= major) return { bin, version, major: toolMajor };
    found ||= `${bin} is version ${version}`;
  }
  throw new BackupError(
    `${name} of PostgreSQL ${major} or newer is needed (${found || `${name} was not found`}): install postgresql-client-${major} (the PostgreSQL apt repository has every version) or set PG_BIN_DIR to the folder holding it`,
  );
}

// ---------- PGlite ----------

/** Where a running embedded server answers dump requests: a socket only its OS user may open. */
export function dumpSocketPath(dataDir: string): string {
  const id = crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `xinli-${id}.sock`);
}

/**
 * The embedded server's side (server.ts): a local socket that answers each connection with a dump of
 * the data folder. Another process must never open a PGlite folder that a server has open, so this
 * is how `npm run backup` takes a snapshot while the embedded server runs. Answers its closer.
 */
export async function serveDumps(client: PGlite, dataDir: string): Promise<() => Promise<void>> {
  const socket = dumpSocketPath(dataDir);
  await fsp.rm(socket, { force: true });
  const server = net.createServer((conn) => {
    conn.on('error', () => {});
    client
      .dumpDataDir('none')
      .then((blob) => pipeline(Readable.fromWeb(blob.stream() as never), conn))
      .catch(() => conn.destroy());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
  await fsp.chmod(socket, 0o600);
  server.unref();
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A running embedded server's dump stream, or null when none answers on the data folder's socket. */
async function dumpFromServer(dataDir: string): Promise<Readable | null> {
  const socket = dumpSocketPath(dataDir);
  if (!fs.existsSync(socket)) return null;
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    conn.once('connect', () => resolve(conn));
    conn.once('error', () => resolve(null));
  });
}

/** Whether an embedded server has the data folder open (it answers on its socket). */
export async function embeddedServerRunning(dataDir: string): Promise<boolean> {
  const conn = await dumpFromServer(dataDir);
  conn?.destroy();
  return !!conn;
}

/** The PostgreSQL files of a PGlite dump: DATA_DIR also holds data.key and (by default) the file store, which must not go in. */
const POSTGRES_ENTRY = /^(PG_VERSION|base|global|pg_[\w.]+|postgresql[\w.]*\.conf|postmaster\.opts)$/;

async function keepPostgresOnly(input: Readable, output: Writable): Promise<void> {
  const extract = tar.extract();
  const pack = tar.pack();
  extract.on('entry', (header, stream, next) => {
    const top = header.name.replace(/^\/+/, '').split('/')[0]!;
    if (!POSTGRES_ENTRY.test(top)) {
      stream.on('end', next).resume();
      return;
    }
    stream.pipe(pack.entry(header, next));
  });
  extract.on('finish', () => pack.finalize());
  await Promise.all([pipeline(input, extract), pipeline(pack, output)]);
}

async function dumpPglite(dataDir: string, target: string, client?: PGlite): Promise<Snapshot> {
  let source = client ? null : await dumpFromServer(dataDir);
  if (!source) {
    let own: PGlite | undefined;
    if (!client) {
      if (!fs.existsSync(path.join(dataDir, 'PG_VERSION')))
        throw new BackupError(`${dataDir} holds no database (DATA_DIR); nothing to back up`);
      own = await PGlite.create(dataDir);
    }
    const blob = await (client ?? own)!.dumpDataDir('none');
    await own?.close();
    source = Readable.fromWeb(blob.stream() as never);
  }
  await keepPostgresOnly(source, fs.createWriteStream(target));
  // The manifest's figures from the dump itself: the same snapshot, and proof that it opens.
  const copy = await PGlite.create({ loadDataDir: await fs.openAsBlob(target) });
  try {
    await copy.exec(`SET TIME ZONE 'UTC'; SET DateStyle = 'ISO, YMD'`);
    return await readSnapshot(async (text) => (await copy.query<Record<string, unknown>>(text)).rows);
  } finally {
    await copy.close();
  }
}

// ---------- restore ----------

export interface RestoreResult {
  manifest: Manifest;
  files: number;
  /** Migrations applied after the restore (a backup of an older version). */
  migrated: number;
}

/**
 * Restores `file` into `place`: the archive verified first, then the engine, the emptiness of the
 * target (unless `force`) and the data key checked, all before anything changes. After the restore
 * every table is compared with the manifest, then the migrations run.
 */
export async function restoreBackup(file: string, place: Place, config: Config, opts: { force?: boolean } = {}): Promise<RestoreResult> {
  const manifest = await verifyArchive<Manifest>(file);
  const engine = place.url ? 'postgres' : 'pglite';
  if (manifest.engine !== engine)
    throw new BackupError(
      `this backup is of ${manifest.engine === 'pglite' ? 'an embedded (DATA_DIR)' : 'a PostgreSQL (DATABASE_URL)'} database; restore it into the same kind (nothing was changed)`,
    );
  checkDataKey(manifest, place, config);
  if (engine === 'pglite' && (await embeddedServerRunning(place.dataDir)))
    throw new BackupError(`a server has ${place.dataDir} open: stop it before restoring (nothing was changed)`);
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'xinli-restore-'));
  try {
    const dbFile = path.join(tmp, 'database');
    const occupied = [...(await occupiedParts(place))];
    if (occupied.length && !opts.force)
      throw new BackupError(
        `${occupied.join(' and ')} ${occupied.length > 1 ? 'are' : 'is'} not empty: restore into an empty one, or add --force to replace what is there (nothing was changed)`,
      );
    let files = 0;
    await eachEntry(file, async (name, content) => {
      if (name === DB_PART[engine]) await saveEntry(content, dbFile);
      else content.resume();
    });
    if (occupied.length) await clearTarget(place);
    const restored = place.url ? await restorePostgres(place.url, dbFile, manifest) : await restorePglite(place.dataDir, dbFile);
    try {
      await compareWithManifest(restored.q, manifest);
      if (place.filesDir) files = await restoreFiles(file, place.filesDir);
      const before = (await migrationState(restored.q, true)).applied;
      await runMigrations(restored.database);
      const after = (await migrationState(restored.q, true)).applied;
      return { manifest, files, migrated: after - before };
    } finally {
      await restored.close();
    }
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

/** The key must open the manifest's sealed value; an embedded folder without DATA_KEY must be given the backed-up data.key first. */
function checkDataKey(manifest: Manifest, place: Place, config: Config) {
  if (!manifest.dataKey.check) return;
  if (!config.dataKeys.current && !fs.existsSync(path.join(place.dataDir, 'data.key')))
    throw new BackupError(
      `no data key: set DATA_KEY (or DATA_KEY_FILE) to the key the backup was made under, or copy the backed-up data.key into ${place.dataDir}. ${KEY_NOTE} (nothing was changed)`,
    );
  installKeys(config);
  try {
    open(manifest.dataKey.check);
  } catch {
    throw new BackupError(
      'the data key configured here (DATA_KEY, DATA_KEY_FILE or DATA_DIR/data.key) is not the key this backup was sealed under: its names, phone numbers and answers could not be read. Restore with the original key (nothing was changed)',
    );
  }
}

async function occupiedParts(place: Place): Promise<string[]> {
  const parts: string[] = [];
  if (place.url) {
    const client = new pg.Client({ connectionString: place.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
      );
      if (rows[0]!.n > 0) parts.push('the database (DATABASE_URL)');
    } finally {
      await client.end();
    }
  } else if (fs.existsSync(path.join(place.dataDir, 'PG_VERSION'))) parts.push(`the data folder ${place.dataDir}`);
  if (place.filesDir && (await listFiles(place.filesDir)).length) parts.push(`the file store ${place.filesDir}`);
  return parts;
}

/** --force: PostgreSQL's schemas dropped; the embedded folder moved aside (kept, with its data.key). */
async function clearTarget(place: Place) {
  if (place.url) {
    const client = new pg.Client({ connectionString: place.url });
    await client.connect();
    try {
      await client.query('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public');
    } finally {
      await client.end();
    }
  } else {
    const aside = `${place.dataDir.replace(/\/+$/, '')}.replaced-${Date.now()}`; // wall-clock: only names the folder kept aside
    await fsp.rename(place.dataDir, aside);
    await fsp.mkdir(place.dataDir, { recursive: true });
    if (fs.existsSync(path.join(aside, 'data.key'))) await fsp.copyFile(path.join(aside, 'data.key'), path.join(place.dataDir, 'data.key'));
    console.log(`the previous data folder was moved to ${aside}`);
  }
  if (place.filesDir && !place.filesDir.startsWith(place.dataDir + path.sep) && fs.existsSync(place.filesDir))
    await fsp.rm(place.filesDir, { recursive: true });
}

interface Restored {
  database: Awaited<ReturnType<typeof openDatabase>>;
  q: Query;
  close(): Promise<void>;
}

async function restorePostgres(url: string, dbFile: string, manifest: Manifest): Promise<Restored> {
  const probe = new pg.Client({ connectionString: url });
  await probe.connect();
  const major = await serverMajor(probe).finally(() => probe.end());
  const tool = await pgTool('pg_restore', Math.max(major, manifest.pgDump?.major ?? 0));
  const conn = connectionArgs(url);
  await run(tool.bin, ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', ...conn.args, dbFile], {
    env: conn.env,
  }).catch((e: { stderr?: string }) => {
    throw new BackupError(`pg_restore failed: ${(e.stderr ?? String(e)).trim()}`);
  });
  const database = await openDatabase({ url, migrate: false });
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const q: Query = async (text) => {
    const c = await pool.connect();
    try {
      await c.query(`SET TIME ZONE 'UTC'; SET DateStyle = 'ISO, YMD'`);
      return (await c.query(text)).rows as Record<string, unknown>[];
    } finally {
      c.release();
    }
  };
  return { database, q, close: () => database.close() };
}

async function restorePglite(dataDir: string, dbFile: string): Promise<Restored> {
  const database = await openDatabase({ dataDir, template: await fs.openAsBlob(dbFile), migrate: false });
  const client = (database.db as unknown as { $client: PGlite }).$client;
  await client.exec(`SET TIME ZONE 'UTC'; SET DateStyle = 'ISO, YMD'`);
  return { database, q: async (text) => (await client.query<Record<string, unknown>>(text)).rows, close: () => database.close() };
}

/** Every table of the manifest with the same row count and checksum: the restore is the snapshot. */
async function compareWithManifest(q: Query, manifest: Manifest) {
  const now = (await readSnapshot(q)).tables;
  const differ = Object.entries(manifest.tables)
    .filter(([name, t]) => now[name]?.rows !== t.rows || now[name]?.checksum !== t.checksum)
    .map(([name, t]) => `${name} (${now[name]?.rows ?? 'missing'} rows, ${t.rows} backed up)`);
  if (differ.length) throw new BackupError(`the restored database differs from the backup's manifest: ${differ.join(', ')}`);
}

async function restoreFiles(file: string, filesDir: string): Promise<number> {
  let count = 0;
  const root = path.resolve(filesDir);
  await eachEntry(file, async (name, content) => {
    if (!name.startsWith('files/')) return void content.resume();
    const target = path.resolve(root, name.slice('files/'.length));
    if (!target.startsWith(root + path.sep)) throw new BackupError(`${name}: a file outside the file store`);
    await saveEntry(content, target);
    count++;
  });
  return count;
}
