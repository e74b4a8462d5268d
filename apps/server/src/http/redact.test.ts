import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../test/harness.js';
import { redactLogLine, redactUrl } from './redact.js';

/** Credentials that travel in URLs: an assessment code, an entry token, a task code, an upload signature, a file key, an order token. */
const CODE = 'K7M3QXR9TB';
const ENTRY = 'q3Vx9_Zr-AbCdEfGhIjKlMnOpQ';
const TASK = 'T4ZK8WP2MN';
const SIG = 'ab'.repeat(32);
const KEY = '0123456789abcdef0123456789abcdef';
const AMZ = 'f00dfeed'.repeat(8);
const ORDER = 'ordtok_5Hq2LpX9';
const SECRETS = [CODE, ENTRY, TASK, SIG, KEY, AMZ, ORDER];

describe.each(engines())('log lines hold no credential of a URL on %s', (engine) => {
  let s: TestServer;
  let log = '';
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (c: Buffer) => (log += c.toString()));
    s = await startTestServer(engine, { config: { logLevel: 'request' }, logStream: stream });
  });
  afterAll(() => s?.close());

  it('masks path tokens and query signatures in request lines and in error lines with the request', async () => {
    const urls = [
      `/a/${CODE}`,
      `/r/${ENTRY}`,
      `/r/${ENTRY}/articles/AR0001`,
      `/r/${ENTRY}/shop?order=${ORDER}`,
      `/t/${TASK}`,
      `/files/${KEY}.png`,
      `/files/upload/FL0001?exp=1790000000000&sig=${SIG}`,
      `/a/${CODE}?X-Amz-Signature=${AMZ}&X-Amz-Credential=AKIA%2F${AMZ}`,
    ];
    for (const url of urls) await s.app.inject({ method: url.startsWith('/files/upload') ? 'PUT' : 'GET', url });
    // An error line that serializes the request, as Fastify's own error logging does.
    s.app.log.error({ req: { method: 'GET', url: `/a/${CODE}?sig=${SIG}`, headers: {} } }, `failed at /t/${TASK}`);
    await new Promise((r) => setImmediate(r));
    const lines = log.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(urls.length + 1);
    for (const secret of SECRETS) expect(log, secret).not.toContain(secret);
    // What is not a credential stays: the shape of the path, the file id, the expiry, the article.
    expect(log).toContain('/files/upload/FL0001?exp=1790000000000&sig=');
    expect(log).toContain('/r/*/articles/AR0001');
    expect(log).toContain('"url":"/a/*"');
    expect(log).toContain('/files/*.png');
  });

  it('leaves other URLs and text alone', () => {
    expect(redactUrl('/api/as.m.system.ping/1.0.0/action')).toBe('/api/as.m.system.ping/1.0.0/action');
    expect(redactUrl('/assets/index-3f2a.js?v=2')).toBe('/assets/index-3f2a.js?v=2');
    expect(redactLogLine('{"msg":"listening","address":"http://127.0.0.1:3000"}\n')).toBe(
      '{"msg":"listening","address":"http://127.0.0.1:3000"}\n',
    );
    expect(redactUrl('/a')).toBe('/a');
    expect(redactUrl('/t')).toBe('/t');
  });
});
