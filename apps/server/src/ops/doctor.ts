/**
 * `npm run doctor` (issue 32 §4): checks a configuration before the server starts, one line per
 * check (`ok` or `FAIL` and why); any failure makes the command exit non-zero. It reads the same
 * environment as `npm run serve` and changes nothing but a probe file it writes and removes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { loadConfig, type Config } from '../config.js';
import { migrationsFolder } from '../db/database.js';
import { installKeys } from '../encryption.js';
import { open } from '../kit/crypt/index.js';
import { storageFor } from '../kit/storage/index.js';
import { embeddedServerRunning } from './backup.js';

const run = promisify(execFile);

/** The oldest PostgreSQL the server is tested on (CI and the deploy/ compose file run 15). */
export const MIN_POSTGRES = 15;

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** Runs every check against `env`; a check that cannot run fails with its reason. */
export async function doctor(env: NodeJS.ProcessEnv): Promise<Check[]> {
  const checks: Check[] = [];
  const add = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  let config: Config;
  try {
    config = loadConfig(env);
    add('configuration', true, config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite at ${config.dataDir}`);
  } catch (e) {
    add('configuration', false, (e as Error).message);
    return checks;
  }
  const production = !!config.databaseUrl || env.NODE_ENV === 'production';
  await withDatabase(config, add, async (q) => {
    await migrations(q, add);
    await dataKey(config, env, q, add);
  });
  if (config.databaseReadUrl) await readReplica(config.databaseReadUrl, add);
  await fileStore(config, add);
  if (production && !env.PUBLIC_BASE_URL)
    add('public URL', false, 'PUBLIC_BASE_URL is not set: respondents’ links and QR codes would point at localhost');
  else if (production && !env.PUBLIC_BASE_URL!.startsWith('https://'))
    add('public URL', false, `${config.publicBaseUrl} is not https: respondents’ answers must travel encrypted`);
  else add('public URL', true, config.publicBaseUrl);
  await chromium(config, add);
  await aiEndpoint(config, add);
  return checks;
}

/** The database reached and its version; the query runs the next checks on it. */
async function withDatabase(config: Config, add: (n: string, ok: boolean, d: string) => void, then: (q: Query) => Promise<void>) {
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
    } catch (e) {
      return add('database', false, `PostgreSQL not reachable: ${(e as Error).message}`);
    }
    try {
      const { rows } = await client.query<{ v: string; n: string }>(
        `select current_setting('server_version') as v, current_setting('server_version_num') as n`,
      );
      const major = Math.floor(Number(rows[0]!.n) / 10000);
      add(
        'database',
        major >= MIN_POSTGRES,
        major >= MIN_POSTGRES ? `PostgreSQL ${rows[0]!.v}` : `PostgreSQL ${rows[0]!.v} is older than ${MIN_POSTGRES}, the oldest supported`,
      );
      if (major >= MIN_POSTGRES) await then(async (text) => (await client.query(text)).rows as Record<string, unknown>[]);
    } finally {
      await client.end();
    }
    return;
  }
  if (await embeddedServerRunning(config.dataDir))
    return add(
      'database',
      true,
      `embedded PGlite at ${config.dataDir}, open by a running server (stop it to check migrations and the data key)`,
    );
  if (!fs.existsSync(path.join(config.dataDir, 'PG_VERSION')))
    return add('database', true, `embedded PGlite: ${config.dataDir} is created on the first start`);
  const client = await PGlite.create(config.dataDir);
  try {
    const [v] = (await client.query<{ v: string }>(`select current_setting('server_version') as v`)).rows;
    add('database', true, `embedded PGlite ${v!.v} at ${config.dataDir}`);
    await then(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
  } finally {
    await client.close();
  }
}

/**
 * DATABASE_READ_URL: reached through a read-only session as the server opens it, a standby of the
 * primary (a copy that is not one would never follow the primary's writes), and carrying no migration
 * this code does not know. Its replay lag is printed: lists and statistics are that far behind.
 */
async function readReplica(url: string, add: (n: string, ok: boolean, d: string) => void) {
  const name = 'read replica';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, options: '-c default_transaction_read_only=on' });
  try {
    await client.connect();
  } catch (e) {
    return add(name, false, `DATABASE_READ_URL not reachable: ${(e as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ v: string; n: string; standby: boolean; lag: number | null; migrations: boolean }>(
      `select current_setting('server_version') as v, current_setting('server_version_num') as n, pg_is_in_recovery() as standby,
        extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as lag,
        to_regclass('drizzle.__drizzle_migrations') is not null as migrations`,
    );
    const r = rows[0]!;
    if (Math.floor(Number(r.n) / 10000) < MIN_POSTGRES) return add(name, false, `PostgreSQL ${r.v} is older than ${MIN_POSTGRES}, the oldest supported`);
    if (!r.standby)
      return add(name, false, `PostgreSQL ${r.v} at DATABASE_READ_URL is not a standby (pg_is_in_recovery() is false): its data would not follow the primary; unset DATABASE_READ_URL to read from the primary`);
    const known = new Set(journalEntries().map((e) => e.when));
    const applied = r.migrations ? (await client.query<{ created_at: string }>(`select created_at from drizzle.__drizzle_migrations`)).rows : [];
    if (applied.some((m) => !known.has(Number(m.created_at))))
      return add(name, false, 'the replica holds migrations this version does not know: it follows a database of a newer version');
    add(name, true, `PostgreSQL ${r.v} standby, ${r.lag === null ? 'nothing replayed yet' : `last replayed change ${Math.max(0, r.lag).toFixed(1)} s ago`}`);
  } finally {
    await client.end();
  }
}

function journalEntries(): { when: number; tag: string }[] {
  return (JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] }).entries;
}

async function migrations(q: Query, add: (n: string, ok: boolean, d: string) => void) {
  const journal = { entries: journalEntries() };
  const [has] = await q(`select to_regclass('drizzle.__drizzle_migrations') is not null as t`);
  const applied = has?.t ? (await q(`select created_at from drizzle.__drizzle_migrations`)).map((r) => Number(r.created_at)) : [];
  const known = new Set(journal.entries.map((e) => e.when));
  const unknown = applied.filter((w) => !known.has(w)).length;
  if (unknown)
    return add(
      'migrations',
      false,
      `${unknown} applied migrations this version does not know: the database is of a newer version than this code`,
    );
  const pending = journal.entries.length - applied.length;
  add(
    'migrations',
    true,
    pending
      ? `${applied.length} of ${journal.entries.length} applied; the server applies the other ${pending} when it starts`
      : `all ${applied.length} applied (${journal.entries.at(-1)!.tag})`,
  );
}

async function dataKey(config: Config, env: NodeJS.ProcessEnv, q: Query, add: (n: string, ok: boolean, d: string) => void) {
  const source = env.DATA_KEY ? 'DATA_KEY' : env.DATA_KEY_FILE ? `DATA_KEY_FILE ${env.DATA_KEY_FILE}` : `${config.dataDir}/data.key`;
  if (!config.dataKeys.current && !fs.existsSync(path.join(config.dataDir, 'data.key'))) {
    const production = !!config.databaseUrl && env.NODE_ENV === 'production';
    return add(
      'data key',
      !production,
      production
        ? 'no DATA_KEY or DATA_KEY_FILE: the server does not start without one'
        : `none yet: the first start makes ${config.dataDir}/data.key`,
    );
  }
  try {
    installKeys(config);
  } catch (e) {
    return add('data key', false, (e as Error).message);
  }
  const [has] = await q(`select to_regclass('public.data_key') is not null as t`);
  const [row] = has?.t ? await q(`select value from data_key where name = 'blind-index'`) : [];
  if (!row) return add('data key', true, `${source} (no sealed value stored yet)`);
  try {
    open(String(row.value));
    add('data key', true, `${source} opens the database's sealed values`);
  } catch {
    add('data key', false, `${source} does not open the database's sealed values: it is not the key this database was sealed under`);
  }
}

async function fileStore(config: Config, add: (n: string, ok: boolean, d: string) => void) {
  const storage = storageFor(config);
  const where =
    config.files.storage === 's3' ? `S3 bucket ${config.files.s3!.bucket}` : (config.files.dir ?? path.join(config.dataDir, 'files'));
  // A key of the shape the files domain makes (32 hex and an extension), removed at once.
  const key = `${'0'.repeat(24)}${Date.now().toString(16).padStart(8, '0').slice(-8)}.txt`; // wall-clock: only makes the probe's name unique
  try {
    if (config.files.storage === 'disk') await fsp.mkdir(where, { recursive: true });
    await storage.put(key, Buffer.from('xinli doctor'), 'text/plain');
    await storage.delete(key);
    // The disk store keeps a key under its first two characters: that folder goes too if the probe was alone in it.
    if (config.files.storage === 'disk') await fsp.rmdir(path.join(where, key.slice(0, 2))).catch(() => {});
    add('file store', true, `${where} is writable`);
  } catch (e) {
    add('file store', false, `${where} is not writable: ${(e as Error).message}`);
  }
}

async function chromium(config: Config, add: (n: string, ok: boolean, d: string) => void) {
  try {
    const { stdout } = await run(config.chromiumPath, ['--version'], { timeout: 15_000 });
    add('chromium (PDFs)', true, `${config.chromiumPath}: ${stdout.trim()}`);
  } catch (e) {
    add(
      'chromium (PDFs)',
      false,
      `${config.chromiumPath} does not run (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): install Debian's chromium or set CHROMIUM_PATH; no PDF reports without it`,
    );
  }
}

async function aiEndpoint(config: Config, add: (n: string, ok: boolean, d: string) => void) {
  if (!config.aiReport) return add('AI endpoint', true, 'not configured (AI_REPORT_BASE_URL): the rule-based writer only');
  const url = `${config.aiReport.baseUrl.replace(/\/+$/, '')}/models`;
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${config.aiReport.apiKey}` }, signal: AbortSignal.timeout(10_000) });
    if (res.status === 401 || res.status === 403)
      add('AI endpoint', false, `${url} refused the key (HTTP ${res.status}): check AI_REPORT_API_KEY`);
    else if (res.status >= 500) add('AI endpoint', false, `${url} answered HTTP ${res.status}`);
    else add('AI endpoint', true, `${config.aiReport.baseUrl} reachable (model ${config.aiReport.model})`);
  } catch (e) {
    add(
      'AI endpoint',
      false,
      `${url} not reachable: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`,
    );
  }
}

/** The lines `npm run doctor` prints. */
export function report(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(width)}  ${c.detail}`).join('\n');
}
