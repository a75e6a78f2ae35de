import 'server-only';

import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

import type { MediaS3Config } from '@/lib/config/server';

import type { ByteRange, MediaStorage, StoredObject } from './index';

const MiB = 1024 * 1024;
/** S3 allows at most 10,000 parts per multipart upload; stay below it with room to spare. */
const MAX_PARTS = 9_000;
/** DeleteObjects takes at most 1,000 keys per request. */
const DELETE_BATCH = 1_000;

/**
 * Everything the pipeline writes is immutable once stored: a video's files
 * are only ever rewritten with the same content (a job rerun) or deleted,
 * and VOD playlists never change. So a CDN in front of the bucket may keep
 * them for a year. Originals are never served to viewers, and data exports
 * only to their member, through the app.
 */
export function cacheControlFor(key: string): string {
  return key.startsWith('originals/') || key.startsWith('exports/') ? 'private, no-store' : 'public, max-age=31536000, immutable';
}

/** Media in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2), under an optional key prefix. */
export class S3MediaStorage implements MediaStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;
  /** Where openLocal puts its temporary copies for ffmpeg. */
  readonly cacheDir: string;

  constructor(config: MediaS3Config, dataDir: string) {
    this.bucket = config.bucket;
    this.prefix = config.prefix;
    this.cacheDir = path.join(dataDir, 'work', 's3-cache');
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Newer SDKs send CRC32 checksums (with aws-chunked trailers on streamed bodies) on every
      // upload; several S3-compatible services reject or mangle those. Send them only where the
      // API requires one (DeleteObjects) unless we talk to AWS itself.
      ...(config.endpoint ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
    });
  }

  /** The object key for a media key; refuses keys that would mean something else on a file system or behind a CDN. */
  objectKey(key: string): string {
    const parts = key.split('/');
    if (!key || parts.some((part) => part === '' || part === '.' || part === '..')) {
      throw new Error(`Media key escapes the storage root: ${key}`);
    }
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  async putFile(key: string, localPath: string, contentType: string): Promise<void> {
    const objectKey = this.objectKey(key);
    const { size } = await stat(localPath);
    // Streamed from disk in parts, at most queueSize × partSize bytes in memory, for multi-GB originals.
    const partSize = Math.max(8 * MiB, Math.ceil(size / MAX_PARTS / MiB) * MiB);
    const upload = new Upload({
      client: this.client,
      queueSize: 4,
      partSize,
      leavePartsOnError: false,
      params: {
        Bucket: this.bucket,
        Key: objectKey,
        Body: createReadStream(localPath),
        ContentType: contentType,
        CacheControl: cacheControlFor(key),
      },
    });
    await upload.done();
    await rm(localPath, { force: true });
  }

  async openLocal(key: string) {
    await mkdir(this.cacheDir, { recursive: true });
    const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    // Keep the extension: ffmpeg uses it as a hint for some containers.
    const copy = path.join(this.cacheDir, `${randomBytes(8).toString('hex')}${path.extname(key).slice(0, 8)}`);
    try {
      await pipeline(response.Body as Readable, createWriteStream(copy, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await rm(copy, { force: true });
      throw error;
    }
    return { path: copy, release: () => rm(copy, { force: true }) };
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const response = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return response.Body as Readable;
  }

  async presignedGetUrl(key: string, seconds: number, cacheControl: string): Promise<string> {
    // Signed locally (no request to the bucket): a missing object is the bucket's 404 to the browser.
    const command = new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), ResponseCacheControl: cacheControl });
    return getSignedUrl(this.client, command, { expiresIn: seconds });
  }

  async deletePrefix(prefix: string): Promise<void> {
    const exact = this.objectKey(prefix);
    let pending: string[] = [exact];
    let continuationToken: string | undefined;
    do {
      // Keys under `prefix/` only, so deleting videos/a leaves videos/ab alone.
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${exact}/`, ContinuationToken: continuationToken }),
      );
      pending.push(...(page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
      while (pending.length >= DELETE_BATCH) {
        await this.deleteKeys(pending.slice(0, DELETE_BATCH));
        pending = pending.slice(DELETE_BATCH);
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
    if (pending.length) await this.deleteKeys(pending);
  }

  private async deleteKeys(keys: string[]): Promise<void> {
    const result = await this.client.send(
      new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
    );
    const failed = (result.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
    if (failed.length) {
      throw new Error(
        `Could not delete ${failed.length} media object(s), e.g. ${failed[0]!.Key}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`.trim(),
      );
    }
  }
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as Partial<S3ServiceException>).$metadata?.httpStatusCode;
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || status === 404;
}
