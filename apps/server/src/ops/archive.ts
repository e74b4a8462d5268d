/**
 * The backup archive (issue 32 §1): one zip (yazl/yauzl) holding `manifest.json`, the database part
 * and the file store's files, each part's SHA-256 in the manifest. Reading verifies every part
 * against the manifest before anything is restored, so a damaged or altered archive changes nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';

export const MANIFEST = 'manifest.json';

export interface Part {
  name: string;
  bytes: number;
  sha256: string;
}

/** A refusal with a message for the person running the command (no stack needed). */
export class BackupError extends Error {}

/** Writes parts one after another into `file` (via `file.partial`, renamed at the end: never half an archive under its name). */
export class ArchiveWriter {
  private zip = new yazl.ZipFile();
  private written: Promise<void>;
  readonly parts: Part[] = [];

  constructor(private file: string) {
    this.written = pipeline(this.zip.outputStream, fs.createWriteStream(`${file}.partial`, { mode: 0o600 }));
  }

  /** Adds a stream as part `name`, hashing what the zip reads; resolves when it has been read. */
  async add(name: string, source: Readable, compress = true): Promise<Part> {
    const hash = crypto.createHash('sha256');
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    const through = source.pipe(counted);
    source.once('error', (e) => counted.destroy(e));
    this.zip.addReadStream(through, name, { compress });
    await finished(through);
    const part = { name, bytes, sha256: hash.digest('hex') };
    this.parts.push(part);
    return part;
  }

  /** The manifest goes last (it lists every part's checksum), then the archive is closed and renamed. */
  async finish(manifest: object): Promise<void> {
    this.zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), MANIFEST);
    this.zip.end();
    await this.written;
    await fsp.rename(`${this.file}.partial`, this.file);
  }

  async abandon(): Promise<void> {
    (this.zip.outputStream as unknown as Readable).destroy();
    await this.written.catch(() => {});
    await fsp.rm(`${this.file}.partial`, { force: true });
  }
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true }, (e, zip) => (e ? reject(e) : resolve(zip))),
  );
}

/** Calls `each` with every entry and its content stream, one after another. */
export async function eachEntry(file: string, each: (name: string, content: Readable) => Promise<void>): Promise<void> {
  const zip = await openZip(file);
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          each(entry.fileName, stream).then(() => zip.readEntry(), reject);
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

async function sha256(stream: Readable): Promise<{ sha256: string; bytes: number }> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * Reads the manifest and checks every part against it (present, same size, same SHA-256, nothing
 * extra). Throws a BackupError naming what is wrong; answers the manifest when all is well.
 */
export async function verifyArchive<M extends { parts: Part[] }>(file: string): Promise<M> {
  if (!fs.existsSync(file)) throw new BackupError(`${file}: no such file`);
  let manifestText = '';
  const seen = new Map<string, { sha256: string; bytes: number }>();
  try {
    await eachEntry(file, async (name, content) => {
      if (name === MANIFEST) {
        const chunks: Buffer[] = [];
        for await (const c of content as AsyncIterable<Buffer>) chunks.push(c);
        manifestText = Buffer.concat(chunks).toString('utf8');
      } else seen.set(name, await sha256(content));
    });
  } catch (e) {
    throw new BackupError(`${file} is damaged and cannot be read (${(e as Error).message}); nothing was changed`);
  }
  let manifest: M;
  try {
    manifest = JSON.parse(manifestText) as M;
    if (!Array.isArray(manifest.parts)) throw new Error('no parts');
  } catch {
    throw new BackupError(`${file} has no readable ${MANIFEST}: it is not a Xinli backup, or it is damaged; nothing was changed`);
  }
  const bad: string[] = [];
  for (const part of manifest.parts) {
    const got = seen.get(part.name);
    if (!got) bad.push(`${part.name} is missing`);
    else if (got.bytes !== part.bytes || got.sha256 !== part.sha256) bad.push(`${part.name} does not match its checksum`);
    seen.delete(part.name);
  }
  for (const name of seen.keys()) bad.push(`${name} is not in the manifest`);
  if (bad.length)
    throw new BackupError(
      `${file} is damaged: ${bad.slice(0, 5).join('; ')}${bad.length > 5 ? ` (and ${bad.length - 5} more)` : ''}; nothing was changed`,
    );
  return manifest;
}

/** Writes one entry's stream to a file (its folder made first). */
export async function saveEntry(content: Readable, target: string): Promise<void> {
  await fsp.mkdir(path.dirname(target), { recursive: true });
  await pipeline(content, fs.createWriteStream(target, { mode: 0o600 }));
}
