import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../../test/s3.js';
import { DiskStorage, S3Storage, type FileStorage } from './index.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const key = (n: number, ext = 'png') => `${n.toString(16).padStart(32, '0')}.${ext}`;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** The storages under test: one suite, two implementations (disk in a temporary folder, S3 on loopback). */
const kinds = [
  {
    name: 'disk',
    async start() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-files-'));
      return { storage: new DiskStorage(dir) as FileStorage, close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 's3',
    async start() {
      const s3 = await startS3Server();
      const storage = new S3Storage(s3.options);
      return {
        storage: storage as FileStorage,
        close: async () => {
          storage.destroy();
          await s3.close();
        },
      };
    },
  },
];

describe.each(kinds)('file storage on $name', (kind) => {
  let storage: FileStorage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, close } = await kind.start());
  });
  afterAll(() => close?.());

  it('stores, reads the head and the whole, and deletes', async () => {
    await storage.put(key(1), PNG, 'image/png');
    expect(await storage.head(key(1), 8)).toEqual({ size: PNG.length, head: PNG.subarray(0, 8), version: expect.any(String) });
    const whole = await storage.get(key(1));
    expect(whole?.size).toBe(PNG.length);
    expect(await readAll(whole!.body)).toEqual(PNG);
    await storage.delete(key(1));
    expect(await storage.head(key(1), 8)).toBeNull();
    expect(await storage.get(key(1))).toBeNull();
    await storage.delete(key(1)); // nothing there: no error
  });

  it('gives each object a version that changes when it is replaced', async () => {
    await storage.put(key(7), PNG, 'image/png');
    const first = await storage.version(key(7));
    expect(first).toBeTruthy();
    expect((await storage.head(key(7), 8))?.version).toBe(first);
    expect(await storage.version(key(7))).toBe(first);
    await storage.put(key(7), Buffer.concat([PNG, Buffer.from('x')]), 'image/png');
    expect(await storage.version(key(7))).not.toBe(first);
    expect(await storage.version(key(8))).toBeNull();
  });

  it('reads a byte range only, with the whole size', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await storage.put(key(5, 'wav'), bytes, 'audio/wav');
    expect(await storage.size(key(5, 'wav'))).toBe(1000);
    expect(await storage.size(key(6, 'wav'))).toBeNull();
    const part = await storage.get(key(5, 'wav'), { start: 100, end: 199 });
    expect(part?.size).toBe(1000);
    expect(await readAll(part!.body)).toEqual(bytes.subarray(100, 200));
    const last = await storage.get(key(5, 'wav'), { start: 999, end: 999 });
    expect(await readAll(last!.body)).toEqual(bytes.subarray(999));
  });

  it('answers the whole file when asked for more head than there is', async () => {
    await storage.put(key(2), PNG, 'image/png');
    expect((await storage.head(key(2), 4096))?.head).toEqual(PNG);
  });

  it('refuses any key it did not generate (paths, dots, names)', async () => {
    for (const bad of ['../etc/passwd', '/etc/passwd', 'a/b.png', 'x.png', `${'0'.repeat(32)}.png/..`, `${'0'.repeat(32)}`]) {
      await expect(storage.put(bad, PNG, 'image/png')).rejects.toThrow(/invalid storage key/);
      await expect(storage.head(bad, 8)).rejects.toThrow(/invalid storage key/);
    }
  });

  it('gives a presigned PUT target on S3 that a client can upload to, placed only when asked; none on disk', async () => {
    const now = new Date(Date.UTC(2026, 0, 1));
    const target = await storage.presignPut(key(3), 'image/png', PNG.length, new Date(now.getTime() + 600_000), now);
    if (kind.name === 'disk') {
      expect(target).toBeNull();
      return;
    }
    expect(target!.url).toMatch(/X-Amz-Signature=/);
    const res = await fetch(target!.url, { method: 'PUT', headers: target!.headers, body: PNG });
    expect(res.status).toBe(200);
    // The upload has its own name: the object is there only once placed, and a later PUT does not reach it.
    expect(await storage.head(key(3), 8)).toBeNull();
    await storage.placeUpload(key(3));
    expect((await storage.head(key(3), 8))?.size).toBe(PNG.length);
    const later = Buffer.concat([PNG.subarray(0, PNG.length - 1), Buffer.from([PNG[PNG.length - 1]! ^ 0xff])]);
    expect((await fetch(target!.url, { method: 'PUT', headers: target!.headers, body: later })).status).toBe(200);
    expect(await readAll((await storage.get(key(3)))!.body)).toEqual(PNG);
    await storage.discardUpload(key(3));
    await storage.placeUpload(key(3)); // nothing left to place: the object stays as it was
    expect((await storage.head(key(3), 8))?.size).toBe(PNG.length);
    // The signature covers the key: the same URL for another key is refused.
    const forged = await fetch(target!.url.replace(key(3), key(4)), { method: 'PUT', headers: target!.headers, body: PNG });
    expect(forged.status).toBe(403);
    expect(await storage.head(key(4), 8)).toBeNull();
  });
});
