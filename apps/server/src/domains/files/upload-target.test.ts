import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { storedFile } from './tables.js';
import { PNG } from '../../test/images.js';

const SIZE = 4096;
const image = Buffer.concat([PNG, Buffer.alloc(SIZE - PNG.length)]);
const script = Buffer.from('<html><script>alert(document.cookie)</script>');
const html = Buffer.concat([script, Buffer.alloc(SIZE - script.length, 0x20)]);

/** A PUT body given in two halves: the second only once `release()` is called. */
function heldBody(bytes: Buffer) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const first = new Promise<void>((r) => (started = r));
  const stream = Readable.from(
    (async function* () {
      yield bytes.subarray(0, bytes.length / 2);
      // Asked for more: the first half has been taken by the server.
      started();
      await released;
      yield bytes.subarray(bytes.length / 2);
    })(),
    { objectMode: false },
  );
  return { stream, release, first };
}

/** Files left in the storage folder (finished or half-written). */
function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);
}

describe.each(engines())('a signed upload target on %s with disk storage', (engine) => {
  let s: TestServer;
  let school: string;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-upload-target-'));
    s = await startTestServer(engine, { config: { files: { storage: 'disk', dir } } });
    school = (await s.login('school')).token;
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a PUT that began while the file was pending and finished after it was confirmed, and leaves nothing of it', async () => {
    const target = await s.call('as.m.access.updateToOSSPath', { use: 'image', filename: 'a.png', size: SIZE }, school);
    expect(target.errorCode).toBe(0);
    const { file, upload } = target.data;
    // The attacker's PUT starts while the file is pending, and stalls half-way.
    const late = heldBody(html);
    const lateAnswer = s.app.inject({
      method: 'PUT',
      url: upload.url,
      headers: { ...upload.headers, 'content-length': String(SIZE) },
      payload: late.stream,
    });
    await late.first;
    // The real upload arrives whole; the file is checked and confirmed.
    const put = await s.app.inject({ method: 'PUT', url: upload.url, headers: upload.headers, payload: image });
    expect(put.statusCode).toBe(200);
    const confirmed = await s.call('as.m.access.confirmOSSPath', { fileid: file.fileid }, school);
    expect(confirmed.errorCode).toBe(0);
    expect(confirmed.data).toMatchObject({ status: 'ready', contenttype: 'image/png' });
    // Now the stalled PUT finishes: refused, and the checked file is what is served.
    late.release();
    const refused = await lateAnswer;
    expect(refused.statusCode, refused.body).toBe(409);
    const served = await s.app.inject({ method: 'GET', url: confirmed.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(image)).toBe(true);
    expect(filesIn(dir)).toEqual([file.key]);
    // A PUT after confirmation, from the start, is refused too.
    expect((await s.app.inject({ method: 'PUT', url: upload.url, headers: upload.headers, payload: html })).statusCode).toBe(403);
    expect((await s.app.inject({ method: 'GET', url: confirmed.data.url })).rawPayload.equals(image)).toBe(true);
    const [row] = await s.database.db.select().from(storedFile).where(eq(storedFile.fileid, file.fileid));
    expect(row).toMatchObject({ status: 'ready', contenttype: 'image/png', size: SIZE });
  });
});
