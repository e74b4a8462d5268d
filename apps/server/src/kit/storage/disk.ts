import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertKey, type ByteRange, type FileStorage } from './storage.js';

/**
 * Files on local disk under one folder (DATA_DIR/files by default), two levels of sub-folders by
 * the key's first hex digits so no folder grows huge. Written to a temporary name and renamed, so
 * a reader never sees half a file.
 */
export class DiskStorage implements FileStorage {
  readonly kind = 'disk' as const;
  constructor(readonly root: string) {}

  private pathOf(key: string) {
    assertKey(key);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, body: Buffer) {
    const file = this.pathOf(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.part`;
    await fsp.writeFile(tmp, body, { flag: 'wx' });
    await fsp.rename(tmp, file);
  }

  /**
   * Streams a client's upload to a temporary name, refusing (and removing) more than `max` bytes or
   * other than `exactly` bytes, then moves it into place only if `commit` agrees: the caller runs the
   * move under its own lock and declines when the file may no longer change (issue 27 item 13: a PUT
   * that finishes after the file was confirmed). Declined or failed, nothing of the upload stays.
   */
  async putStream(
    key: string,
    body: NodeJS.ReadableStream,
    max: number,
    commit: (place: () => Promise<void>) => Promise<boolean> = async (place) => (await place(), true),
  ): Promise<{ bytes: number; placed: boolean }> {
    const file = this.pathOf(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.part`;
    const out = await fsp.open(tmp, 'wx');
    let n = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        n += chunk.length;
        if (n > max) throw new Error('too large');
        await out.write(chunk);
      }
      await out.close();
      if (n !== max) {
        await fsp.rm(tmp, { force: true });
        return { bytes: n, placed: false };
      }
      const placed = await commit(() => fsp.rename(tmp, file));
      if (!placed) await fsp.rm(tmp, { force: true });
      return { bytes: n, placed };
    } catch (err) {
      await out.close().catch(() => {});
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async head(key: string, bytes: number) {
    const file = this.pathOf(key);
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(file, 'r');
    } catch {
      return null;
    }
    try {
      const stat = await fh.stat({ bigint: true });
      const size = Number(stat.size);
      const buf = Buffer.alloc(Math.min(bytes, size));
      await fh.read(buf, 0, buf.length, 0);
      // The bytes read and the version are of the same open file, whatever replaces the name meanwhile.
      return { size, head: buf, version: versionOf(stat) };
    } finally {
      await fh.close();
    }
  }

  async version(key: string) {
    try {
      return versionOf(await fsp.stat(this.pathOf(key), { bigint: true }));
    } catch {
      return null;
    }
  }

  async size(key: string) {
    try {
      return (await fsp.stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  async get(key: string, range?: ByteRange) {
    const file = this.pathOf(key);
    try {
      const { size } = await fsp.stat(file);
      return { size, body: fs.createReadStream(file, range ? { start: range.start, end: range.end } : {}) };
    } catch {
      return null;
    }
  }

  async delete(key: string) {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async presignPut() {
    return null;
  }

  /** The PUT route placed the bytes itself, under the file's row lock. */
  async placeUpload() {}

  async discardUpload() {}
}

/** A rename into place gives the name another inode; the change time and size catch a rewrite in place. */
const versionOf = (stat: { ino: bigint; ctimeNs: bigint; size: bigint }) => `${stat.ino}:${stat.ctimeNs}:${stat.size}`;
