import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error: the package has no type declarations
import S3rver from '@20minutes/s3rver';
import type { S3Options } from '../kit/storage/index.js';

/**
 * An S3-compatible server on loopback for tests (@20minutes/s3rver, the maintained fork of s3rver):
 * a real HTTP object store that checks AWS signatures, with its objects in a temporary folder.
 */
export async function startS3Server(bucket = 'xinli-test'): Promise<{ options: S3Options; close(): Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  return {
    options: {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
