import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Options } from '../../config.js';
import { assertKey, type ByteRange, type FileStorage } from './storage.js';

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/** Files in an S3-compatible bucket through the AWS SDK; large uploads go straight to the bucket by presigned PUT. */
export class S3Storage implements FileStorage {
  readonly kind = 's3' as const;
  private client: S3Client;
  constructor(readonly options: S3Options) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Checksums on every request are newer than many S3-compatible stores.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string) {
    assertKey(key);
    return `${this.options.prefix ?? ''}${key}`;
  }

  /**
   * Where a client's presigned PUT lands: beside the objects, under `upload/`. A bucket lifecycle
   * rule on that prefix clears what a PUT leaves there after its file was confirmed (README).
   */
  private uploadKey(key: string) {
    assertKey(key);
    return `${this.options.prefix ?? ''}upload/${key}`;
  }

  async put(key: string, body: Buffer, contenttype: string) {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        Body: body,
        ContentType: contenttype,
        ContentLength: body.length,
      }),
    );
  }

  async head(key: string, bytes: number) {
    try {
      const meta = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      const size = Number(meta.ContentLength ?? 0);
      if (size === 0) return { size, head: Buffer.alloc(0), version: meta.ETag ?? '' };
      const part = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key), Range: `bytes=0-${Math.max(0, bytes - 1)}` }),
      );
      const head = Buffer.from(await part.Body!.transformToByteArray()).subarray(0, bytes);
      // The ETag of the bytes read (a replacement between the two requests shows as a different one).
      return { size, head, version: part.ETag ?? meta.ETag ?? '' };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async version(key: string) {
    try {
      const meta = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      return meta.ETag ?? '';
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async size(key: string) {
    try {
      const meta = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      return Number(meta.ContentLength ?? 0);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  /** A range is GetObject's own Range, so only those bytes leave the store; the whole size is read from its Content-Range. */
  async get(key: string, range?: ByteRange) {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const whole = /\/(\d+)$/.exec(out.ContentRange ?? '');
      return { size: Number(whole ? whole[1] : (out.ContentLength ?? 0)), body: out.Body as Readable };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
  }

  /** Signed at the SDK's clock (the store judges the URL by its own clock), valid for expires − now. */
  async presignPut(key: string, contenttype: string, size: number, expires: Date, now: Date) {
    const expiresIn = Math.max(1, Math.round((expires.getTime() - now.getTime()) / 1000));
    const command = new PutObjectCommand({
      Bucket: this.options.bucket,
      Key: this.uploadKey(key),
      ContentType: contenttype,
      ContentLength: size,
    });
    const url = await getSignedUrl(this.client, command, { expiresIn, signableHeaders: new Set(['content-type', 'content-length']) });
    return { url, headers: { 'content-type': contenttype } };
  }

  async placeUpload(key: string) {
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.options.bucket,
          CopySource: `${this.options.bucket}/${encodeURIComponent(this.uploadKey(key)).replace(/%2F/g, '/')}`,
          Key: this.objectKey(key),
        }),
      );
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  async discardUpload(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.uploadKey(key) }));
  }

  destroy() {
    this.client.destroy();
  }
}
