import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { apiCall, md5Upper, signIn } from './support';
import { toneWav } from '../apps/server/src/kit/upload/wav';
import { freePort } from '../apps/server/src/test/ports';

/**
 * deploy/nginx/xinli.conf, tested as deployed: Debian's nginx (installed by .ci/run) runs as the
 * current user from a temporary prefix with the repository's file, only its ports, upstream and
 * certificate paths replaced, and terminates TLS (a self-signed certificate made here with openssl)
 * in front of a server of its own started with TRUST_PROXY=1. Through it: plain HTTP only redirects,
 * TLS below 1.2 is refused, HSTS is sent once, a browser signs in, opens a page, hears a warning over
 * the event stream and uploads a file larger than nginx's default body limit, and the server sees the
 * client's address (not nginx's, not one the client forged) in its sign-in rate limit and its audit.
 *
 * Clients connect from distinct loopback addresses (127.0.0.2, 127.0.0.3; Linux routes all of
 * 127/8 to lo) while nginx reaches the server from 127.0.0.1, so a server that took nginx's address
 * for the client's would fail the checks.
 */
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const SITE = path.join(import.meta.dirname, '../deploy/nginx/xinli.conf');
/** Sign-ins per minute per address the server allows here (LOGIN_RATE_PER_MINUTE). */
const SIGN_IN_RATE = 4;

let dir = '';
let server: ChildProcess | undefined;
let nginx: ChildProcess | undefined;
const ports = { app: 0, https: 0, http: 0 };
const origin = () => `https://127.0.0.1:${ports.https}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} not found: install Debian's nginx-light (.ci/run does)`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-tls-'));
  ports.app = await freePort();
  ports.https = await freePort();
  ports.http = await freePort();
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    {
      stdio: 'ignore',
    },
  );

  // The compiled server, as playwright.config.ts starts its own; in its own process group, ended together.
  server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(ports.app),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      XINLI_DEMO: '1',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      LOGIN_RATE_PER_MINUTE: String(SIGN_IN_RATE),
      PUBLIC_BASE_URL: origin(),
    },
  });
  let errors = '';
  server.stderr!.on('data', (d: Buffer) => (errors += d.toString()));
  await waitFor(
    async () => (await fetch(`http://127.0.0.1:${ports.app}/readyz`)).status === 200,
    240_000,
    () => errors,
  );

  fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConf(fs.readFileSync(SITE, 'utf8'), cert, key));
  nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: 'ignore' });
  await waitFor(
    async () => (await get(`${origin()}/healthz`)).status === 200,
    30_000,
    () => readLog(),
  );
});

test.afterAll(async () => {
  nginx?.kill('SIGQUIT');
  // The whole group: a signal to npx alone left the server running after the suite.
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  await Promise.all([nginx, server].map((p) => p && p.exitCode === null && new Promise((resolve) => p.once('exit', resolve))));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('plain HTTP only redirects to HTTPS, whatever the path or method, and never answers data', async () => {
  for (const [method, url, body] of [
    ['GET', '/', undefined],
    ['GET', '/login', undefined],
    ['GET', '/healthz', undefined],
    ['GET', '/files/0123456789abcdef0123456789abcdef.png', undefined],
    ['POST', '/api/as.m.user.login/1.0.0/action', JSON.stringify({ username: 'admin', pwd: md5Upper('demo123') })],
  ] as const) {
    const res = await get(`http://127.0.0.1:${ports.http}${url}`, { method, body });
    expect(res.status, `${method} ${url}`).toBe(301);
    expect(res.headers.location).toBe(`https://127.0.0.1${url}`);
    expect(res.body).not.toMatch(/errorCode|"status"|<script|token/);
  }
});

test('TLS 1.2 and 1.3 are accepted, older versions refused; HSTS is sent once on every answer', async () => {
  expect(await handshake('TLSv1.3')).toBe('TLSv1.3');
  expect(await handshake('TLSv1.2')).toBe('TLSv1.2');
  await expect(handshake('TLSv1.1')).rejects.toThrow();
  for (const url of ['/login', '/healthz', '/api/nothing/1.0.0/action']) {
    const res = await get(`${origin()}${url}`);
    expect(res.headers['strict-transport-security'], url).toBe('max-age=63072000; includeSubDomains');
  }
});

test("the console's files are sent compressed, as the server wrote them and cached a year; the server's answers never are", async () => {
  const gzip = { 'accept-encoding': 'gzip' };
  const html = (await get(`${origin()}/login`)).body;
  const files = [...html.matchAll(/\/assets\/[\w.-]+\.(?:js|css)/g)].map((m) => m[0]);
  expect(files.some((f) => f.endsWith('.css')) && files.some((f) => f.endsWith('.js'))).toBe(true);
  for (const file of files) {
    const zipped = await get(`${origin()}${file}`, { headers: gzip });
    const plain = await get(`http://127.0.0.1:${ports.app}${file}`);
    expect(zipped.headers['content-encoding'], file).toBe('gzip');
    expect(zipped.headers['cache-control'], file).toContain('immutable');
    expect(zlib.gunzipSync(zipped.bytes).equals(plain.bytes), file).toBe(true);
    if (plain.bytes.length > 10_000) expect(zipped.bytes.length, file).toBeLessThan(plain.bytes.length / 2);
  }
  // nginx.conf here turns gzip on for JSON and HTML, as Debian's does once its gzip_types line is uncommented.
  const page = await get(`${origin()}/login`, { headers: gzip });
  const answer = await action('nothing', {}, { headers: gzip });
  expect([page.headers['content-encoding'], answer.headers['content-encoding']]).toEqual([undefined, undefined]);
});

test('the server sees the client address, not the proxy and not a forged header: sign-in rate limit and audit', async () => {
  // From 127.0.0.2, with a forged X-Forwarded-For: wrong sign-ins until the address is refused.
  const forged = { 'x-forwarded-for': '203.0.113.9' };
  const statuses: number[] = [];
  for (let i = 0; i <= SIGN_IN_RATE; i++) {
    const res = await action(
      'as.m.user.login',
      { username: 'doctor', pwd: md5Upper('wrong password') },
      { localAddress: '127.0.0.2', headers: forged },
    );
    statuses.push(res.status);
  }
  expect(statuses.at(-1)).toBe(429);
  // Another address is not refused: the limit counted 127.0.0.2, not nginx's 127.0.0.1 or the forged address.
  const admin = await action(
    'as.m.user.login',
    { username: 'admin', pwd: md5Upper('demo123') },
    { localAddress: '127.0.0.3', headers: forged },
  );
  expect(admin.status).toBe(200);
  const token = (JSON.parse(admin.body) as { data: { token: string } }).data.token;
  const audit = async (ip: string) => {
    const res = await action(
      'as.m.audit.getAuditPage',
      { ip, action: 'as.m.user.login', pageSize: 50 },
      { localAddress: '127.0.0.3', headers: { token } },
    );
    const body = JSON.parse(res.body) as { errorCode: number; data: { rows: { ip: string; result: string }[] } };
    expect(body.errorCode).toBe(0);
    return body.data.rows;
  };
  expect((await audit('127.0.0.2')).filter((r) => r.result === 'fail').length).toBeGreaterThanOrEqual(SIGN_IN_RATE - 1);
  expect((await audit('127.0.0.3')).map((r) => r.result)).toContain('ok');
  expect(await audit('203.0.113.9')).toEqual([]);
});

test('a browser signs in through the proxy, opens a page, hears a warning over the event stream and uploads a large file', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const slow = { timeout: 60_000 };
  const context = await browser.newContext({
    baseURL: origin(),
    ignoreHTTPSErrors: true,
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
  });
  try {
    const page = await context.newPage();
    await signIn(page, 'school');
    expect(new URL(page.url()).protocol).toBe('https:');
    const bell = page.getByTestId('notice-bell');
    await expect(bell).toBeVisible(slow);
    const before = Number(await bell.getAttribute('data-unread'));

    // A critical warning raised elsewhere: the bell's count rises without a reload (the event stream).
    const school = await apiToken(context.request, 'school');
    const persons = (await apiCall(context.request, 'as.m.cuser.getCUserPageList', { pageSize: 1 }, school)) as {
      data: { rows: { cusercode: string }[] };
    };
    const flagged = await apiCall(
      context.request,
      'as.m.warning.flagPerson',
      { cusercode: persons.data.rows[0]!.cusercode, level: 'critical', note: '经代理的实时预警测试' },
      school,
    );
    expect(flagged.errorCode, flagged.errorMsg).toBe(0);
    await expect.poll(async () => Number(await bell.getAttribute('data-unread')), slow).toBeGreaterThan(before);

    await uploadLargeAudio(page, slow);
  } finally {
    await context.close();
  }
});

/**
 * A 24 MiB WAV through the file page: above 10 MiB the console PUTs it to the signed target (/files/upload/),
 * and above the 20 MB the file allows elsewhere, so only the upload location's own limit lets it through.
 */
async function uploadLargeAudio(page: Page, slow: { timeout: number }) {
  const file = path.join(dir, '代理上传.wav');
  fs.writeFileSync(file, toneWav(1600, [440, 523, 659]));
  expect(fs.statSync(file).size).toBeGreaterThan(20 * 1024 * 1024);
  await page.goto('/operations/fileUpload');
  await page.getByTestId('file-use').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('音频', { exact: true }).click();
  await page.locator('input[type=file]').setInputFiles(file);
  const row = page.locator('tr.ant-table-row', { hasText: '代理上传.wav' });
  await expect(row).toContainText('audio/wav', slow);
  await expect(row).toContainText('24.4 MB');
}

async function apiToken(request: APIRequestContext, username: string): Promise<string> {
  const res = await apiCall(request, 'as.m.user.login', { username, pwd: md5Upper('demo123') });
  expect(res.errorCode, res.errorMsg).toBe(0);
  return (res.data as { token: string }).token;
}

/**
 * The nginx.conf of the test: the repository's site file inside a minimal main context (the
 * current user, the temporary prefix), with its listen addresses, upstream and certificate paths
 * replaced. Each replaced line must be found, so a change of the file that the test no longer
 * covers fails here.
 */
function nginxConf(site: string, cert: string, key: string): string {
  const replace = (text: string, from: string | RegExp, to: string) => {
    if (!(typeof from === 'string' ? text.includes(from) : from.test(text)))
      throw new Error(`deploy/nginx/xinli.conf no longer has ${String(from)}`);
    return text.replace(from, to);
  };
  let s = site;
  s = replace(s, 'server 127.0.0.1:3000;', `server 127.0.0.1:${ports.app};`);
  s = replace(s, /listen 80;\n\s*listen \[::\]:80;/, `listen 127.0.0.1:${ports.http};`);
  s = replace(s, /listen 443 ssl http2;\n\s*listen \[::\]:443 ssl http2;/, `listen 127.0.0.1:${ports.https} ssl http2;`);
  s = replace(s, '/etc/ssl/xinli/fullchain.pem', cert);
  s = replace(s, '/etc/ssl/xinli/privkey.pem', key);
  // As root (CI containers), workers would otherwise run as nobody and could not write the prefix's temp folders.
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};` : '';
  return `${user}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  gzip on;
  gzip_types text/plain text/css application/json application/javascript text/xml application/xml;
  ${s}
}
`;
}

const readLog = () => (fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '');

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body as it came, not decompressed. */
  bytes: Buffer;
}

/** One request with node's own client (self-signed certificate accepted; a chosen local address). */
function get(
  url: string,
  opts: { method?: string; body?: string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Answer> {
  const u = new URL(url);
  const client = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      u,
      {
        method: opts.method ?? 'GET',
        headers: { ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers },
        localAddress: opts.localAddress,
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const action = (name: string, body: unknown, opts: { headers?: Record<string, string>; localAddress?: string }) =>
  get(`${origin()}/api/${name}/1.0.0/action`, { method: 'POST', body: JSON.stringify(body), ...opts });

/** The protocol a handshake limited to one TLS version settles on (rejects when the server refuses it). */
function handshake(version: tls.SecureVersion): Promise<string | null> {
  return new Promise((resolve, reject) => {
    // SECLEVEL=0: this client would offer the old versions; refusing them is the server's part.
    const socket = tls.connect(
      {
        host: '127.0.0.1',
        port: ports.https,
        minVersion: version,
        maxVersion: version,
        rejectUnauthorized: false,
        ciphers: 'DEFAULT@SECLEVEL=0',
      },
      () => {
        resolve(socket.getProtocol());
        socket.end();
      },
    );
    socket.on('error', reject);
  });
}

async function waitFor(ok: () => Promise<boolean>, timeoutMs: number, why: () => string) {
  const until = Date.now() + timeoutMs; // wall-clock: waiting for a real process to start
  while (Date.now() < until) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not up after ${timeoutMs} ms\n${why()}`);
}
