import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

/** The respondent entry is served at /a/<code> and /r/<token>; the console keeps every other route. */
describe('the respondent page', () => {
  let s: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dist, 'respondent.html'), '<!doctype html><title>respondent</title>');
    s = await startTestServer('pglite', { config: { webDist: dist }, seed: false });
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers respondent.html for a code link and a QR link, index.html elsewhere', async () => {
    for (const url of ['/a/K7M2P9QX4T', '/r/abcdefghijklmnopqrstuvwxyz012345']) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('respondent');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
    expect((await s.app.inject({ method: 'GET', url: '/empower/maternity' })).body).toContain('console');
  });
});
