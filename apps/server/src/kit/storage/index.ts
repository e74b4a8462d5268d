import path from 'node:path';
import type { Config } from '../../config.js';
import { DiskStorage } from './disk.js';
import { S3Storage } from './s3.js';
import type { FileStorage } from './storage.js';

export { DiskStorage } from './disk.js';
export { S3Storage } from './s3.js';
export type { S3Options } from '../../config.js';
export { STORAGE_KEY, type ByteRange, type FileStorage } from './storage.js';

/** The storage the configuration names: S3 when FILE_STORAGE=s3, else the disk folder. */
export function storageFor(config: Config): FileStorage {
  if (config.files.storage === 's3') return new S3Storage(config.files.s3!);
  return new DiskStorage(config.files.dir ?? path.join(config.dataDir, 'files'));
}
