import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConsoleRoute } from './app.js';
import { engines, startTestServer, type TestServer } from './test/harness.js';

/** A stand-in for apps/web/dist: index.html, a hashed asset, a plain file and Vite's manifest. */
function fixtureDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-AbC123.js"></script></body></html>');
  fs.writeFileSync(path.join(dir, 'respondent.html'), '<!doctype html><html><body><div id="root" data-page="respondent"></div></body></html>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), '{"index.html":{}}');
  return dir;
}

const securityHeaders = (headers: Record<string, unknown>) => {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-eval');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
};

describe.each(engines())('the console and its headers (%s)', (engine) => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fixtureDist();
    server = await startTestServer(engine, { config: { webDist: dist } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('opens the console at the root, signed in or not, with GET and HEAD', async () => {
    const { token } = await server.login('school');
    for (const headers of [{}, { token }, { cookie: `Admin-Token=${token}` }]) {
      const res = await server.app.inject({ method: 'GET', url: '/', headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      securityHeaders(res.headers);
    }
    for (const url of ['/', '/index', '/authority/role', '/login?redirect=%2Findex']) {
      const head = await server.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(200);
      expect(head.headers['content-type']).toMatch(/^text\/html/);
      expect(head.body).toBe('');
    }
  });

  it('answers the respondent paths with the respondent page, not the console', async () => {
    for (const url of ['/a', '/a/ABCD2345EF', '/a/abcd2345ef?lang=en', '/r/entry_Token-123456789']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('data-page="respondent"');
      expect(res.headers['cache-control']).toBe('no-cache');
      securityHeaders(res.headers);
    }
    for (const url of ['/a/x/y', '/ab', '/archives/a']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('data-page="respondent"');
    }
  });

  it('serves console routes (history fallback) with the security headers', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/evaluating/scale?x=1' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    securityHeaders(res.headers);
  });

  it('caches hashed assets for long and still sends the headers', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    securityHeaders(res.headers);
    const logo = await server.app.inject({ method: 'GET', url: '/logo.svg' });
    expect(logo.statusCode).toBe(200);
    securityHeaders(logo.headers);
  });

  it('does not serve build internals, directories or missing files (404, never the page)', async () => {
    for (const url of ['/.vite/manifest.json', '/.vite/', '/.vite', '/assets/', '/assets', '/assets/missing-1.js', '/missing.css', '/%2Evite/manifest.json']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('index.html');
      expect(res.body).not.toContain('<div id="root">');
      securityHeaders(res.headers);
    }
  });

  it('answers the API with the headers of a non-document and Cache-Control: no-store', async () => {
    const { token } = await server.login('school');
    const ping = await server.raw('as.m.system.ping', '{}', { token });
    expect(ping.statusCode).toBe(200);
    const refused = await server.raw('as.m.system.ping', '{}');
    const unknown = await server.app.inject({ method: 'GET', url: '/api/nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorCode).toBeGreaterThan(0);
    for (const res of [ping, refused, unknown]) {
      expect(res.headers['cache-control']).toBe('no-store');
      // Nothing may run, load or frame an answer opened as a page.
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      // The headers for documents only are not on API answers.
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(res.headers['x-dns-prefetch-control']).toBeUndefined();
    }
  });
});

describe('which paths are console routes', () => {
  it('takes router paths and leaves files, the API and dot-folders alone', () => {
    expect(isConsoleRoute('/')).toBe(true);
    expect(isConsoleRoute('/index?a=b.c')).toBe(true);
    expect(isConsoleRoute('/authority/role')).toBe(true);
    expect(isConsoleRoute('/api/x/1.0.0/action')).toBe(false);
    expect(isConsoleRoute('/assets/x')).toBe(false);
    expect(isConsoleRoute('/.vite/manifest.json')).toBe(false);
    expect(isConsoleRoute('/.well-known/x')).toBe(false);
    expect(isConsoleRoute('/favicon.ico')).toBe(false);
  });
});
