import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { installKeys, readyEncryption } from '../encryption.js';
import { newDataKeyText } from '../kit/crypt/index.js';
import { engines, freshDatabase } from '../test/harness.js';
import { doctor, report } from './doctor.js';

/** Issue 32 §4: `npm run doctor` passes a good configuration and names each failing check of a broken one. */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-doctor-'));
const config = testConfig();
let ai: http.Server;
let aiUrl = '';
let chromium = '';

beforeAll(async () => {
  // An OpenAI-compatible endpoint that lists its models, and a browser that tells its version.
  ai = http.createServer((req, res) => {
    res.writeHead(req.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  await new Promise<void>((resolve) => ai.listen(0, '127.0.0.1', resolve));
  aiUrl = `http://127.0.0.1:${(ai.address() as AddressInfo).port}/v1`;
  chromium = path.join(tmp, 'chromium');
  fs.writeFileSync(chromium, '#!/bin/sh\necho "Chromium 142.0.0.0 built on Debian"\n', { mode: 0o755 });
});
afterAll(async () => {
  await new Promise((resolve) => ai.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.each(engines('both'))('npm run doctor on %s', (engine) => {
  let database: Database;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const dataDir = path.join(tmp, `${engine}-data`);
    if (engine === 'postgres') database = await freshDatabase('postgres');
    else database = await openDatabase({ dataDir });
    // The blind-index key stored sealed, as the first start leaves it.
    await readyEncryption(database.db, config, false);
    if (engine === 'pglite') await database.close();
    env = {
      ...(engine === 'postgres' ? { DATABASE_URL: (database as { url?: string }).url } : {}),
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATA_KEY: config.dataKeys.current,
      FILES_DIR: path.join(tmp, `${engine}-files`),
      PUBLIC_BASE_URL: 'https://xinli.example.org',
      CHROMIUM_PATH: chromium,
      AI_REPORT_BASE_URL: aiUrl,
      AI_REPORT_MODEL: 'qwen-plus',
    };
  });
  afterAll(async () => {
    installKeys(config);
    if (engine === 'postgres') await database.close();
  });

  it('passes a good configuration, one line per check', async () => {
    const checks = await doctor(env);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual([
      'configuration',
      'database',
      'migrations',
      'data key',
      'file store',
      'public URL',
      'chromium (PDFs)',
      'AI endpoint',
    ]);
    expect(checks.find((c) => c.name === 'database')!.detail).toMatch(engine === 'postgres' ? /^PostgreSQL 1\d/ : /^embedded PGlite/);
    expect(checks.find((c) => c.name === 'migrations')!.detail).toMatch(/^all \d+ applied/);
    expect(checks.find((c) => c.name === 'data key')!.detail).toMatch(/opens the database's sealed values/);
    expect(report(checks).split('\n')).toHaveLength(checks.length);
    expect(fs.readdirSync(env.FILES_DIR!)).toEqual([]);
  });

  it('names every failing check of a broken configuration', async () => {
    fs.writeFileSync(path.join(tmp, 'not-a-folder'), '');
    const broken = {
      ...env,
      DATA_KEY: newDataKeyText(),
      FILES_DIR: path.join(tmp, 'not-a-folder'),
      PUBLIC_BASE_URL: '',
      CHROMIUM_PATH: path.join(tmp, 'no-chromium'),
      AI_REPORT_BASE_URL: aiUrl.replace(/:\d+/, ':1'),
    };
    const checks = await doctor(broken);
    expect(checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([
      'data key',
      'file store',
      'public URL',
      'chromium (PDFs)',
      'AI endpoint',
    ]);
    expect(checks.find((c) => c.name === 'data key')!.detail).toMatch(/not the key this database was sealed under/);
    expect(report(checks)).toMatch(/^FAIL {2}public URL +PUBLIC_BASE_URL is not set/m);
  });

  if (engine === 'postgres')
    it('fails an unreachable database', async () => {
      const checks = await doctor({ ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
      expect(checks.find((c) => c.name === 'database')).toMatchObject({ ok: false, detail: expect.stringMatching(/not reachable/) });
    });

  // A passing replica needs a real standby: scripts/replica-bench.sh starts one (not in CI).
  if (engine === 'postgres')
    it('checks DATABASE_READ_URL: a database that is no standby, and one not reachable, fail', async () => {
      const copy = await doctor({ ...env, DATABASE_READ_URL: env.DATABASE_URL });
      expect(copy.map((c) => c.name)).toContain('read replica');
      expect(copy.find((c) => c.name === 'read replica')).toMatchObject({ ok: false, detail: expect.stringMatching(/is not a standby/) });
      const gone = await doctor({ ...env, DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:1/none' });
      expect(gone.find((c) => c.name === 'read replica')).toMatchObject({ ok: false, detail: expect.stringMatching(/DATABASE_READ_URL not reachable/) });
    });
});

describe('the doctor command', () => {
  it('prints the checks and exits 1 on a failure, 0 when all pass', async () => {
    const cli = path.resolve(import.meta.dirname, '../cli/doctor.ts');
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', cli], {
          env: { PATH: process.env.PATH, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (b) => (out += b));
        child.stderr.on('data', (b) => (out += b));
        child.once('exit', (code) => resolve({ code, out }));
      });
    const base = { DATA_DIR: path.join(tmp, 'cli-data'), CHROMIUM_PATH: chromium };
    const good = await run(base);
    expect(good.out).toMatch(/all checks passed/);
    expect(good.code).toBe(0);
    const bad = await run({ ...base, CHROMIUM_PATH: path.join(tmp, 'no-chromium') });
    expect(bad.out).toMatch(/^FAIL {2}chromium \(PDFs\)/m);
    expect(bad.code).toBe(1);
  }, 60_000);
});
