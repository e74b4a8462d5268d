/**
 * The production build (`npm run build:server`): the server compiled to JavaScript runs under plain
 * `node`, no TypeScript loader, and the guarded spreadsheet reader starts its compiled worker.js
 * (an Excel import through the compiled server proves it).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { md5Upper } from './domains/auth/passwords.js';
import { freePort } from './test/ports.js';

const server = path.resolve(import.meta.dirname, '..');

describe('the compiled server', () => {
  it('builds, starts under plain node, and imports an Excel file through its compiled reader worker', async () => {
    execFileSync(process.execPath, [path.join(server, 'scripts/build.mjs')], { stdio: 'pipe' });
    const main = path.join(server, 'dist/main.js');
    for (const file of ['main.js', 'worker.js', 'create-admin.js']) expect(fs.existsSync(path.join(server, 'dist', file))).toBe(true);

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-build-test-'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, XINLI_DEMO: '1', LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', NODE_OPTIONS: '' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    try {
      await new Promise<void>((resolve, reject) => {
        const t = setInterval(() => out.includes('Xinli console:') && (clearInterval(t), resolve()), 100);
        child.once('exit', (code) => (clearInterval(t), reject(new Error(`exited early ${code}: ${out}`))));
      });
      expect(out).toContain('one process: the embedded database serves a single process');
      // No TypeScript loader in the server process.
      const cmdline = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
      expect(cmdline).not.toContain('tsx');

      const url = `http://127.0.0.1:${port}`;
      const call = async (name: string, body: unknown, token?: string) => {
        const res = await fetch(`${url}/api/${name}/1.0.0/action`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { token } : {}) }, body: JSON.stringify(body) });
        return res;
      };
      const login = (await (await call('as.m.user.login', { username: 'school', pwd: md5Upper('demo123') })).json()) as { data: { token: string } };
      const token = login.data.token;
      const copy = (await (await call('as.m.assess.forms.copyForm', { formcode: 'PHQ9' }, token)).json()) as { errorCode: number; data: { formcode: string } };
      expect(copy.errorCode).toBe(0);
      const { formcode } = copy.data;
      const file = Buffer.from(await (await call('as.m.assess.forms.exportFormExcelTemplate', { formcode }, token)).arrayBuffer());
      expect(file.subarray(0, 2).toString()).toBe('PK');
      const imported = await (await call('as.m.assess.forms.importFormExcel', { formcode, filename: 'q.xlsx', content: file.toString('base64') }, token)).json();
      expect(imported).toMatchObject({ errorCode: 0, data: { formcode, questioncount: 10 } });
    } finally {
      await new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(null);
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
