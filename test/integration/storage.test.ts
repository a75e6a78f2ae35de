import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
// @ts-expect-error -- s3rver ships no type declarations; the few members used are typed below.
import S3rverModule from 's3rver';

import { POST as upload } from '@/app/api/videos/upload/route';
import { ConfigError, loadConfig, type MediaS3Config } from '@/lib/config/server';
import { installDatabase } from '@/lib/db';
import { isDatabaseConnectionLoss } from '@/lib/db/connection-loss';
import { videos } from '@/lib/db/schema';
import { startWorker } from '@/lib/server/jobs/worker';
import { resetLimiters } from '@/lib/server/rate-limit';
import { getMediaStorage, type MediaStorage } from '@/lib/server/storage';
import { LocalMediaStorage } from '@/lib/server/storage/local';
import { S3MediaStorage } from '@/lib/server/storage/s3';
import { JOB_HANDLERS } from '@/lib/server/videos/processing';
import { STORAGE_BROKEN_MESSAGE, STORAGE_BUSY_MESSAGE, storageFailure } from '@/lib/server/videos/storage-failure';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { captureLogs, LEVEL } from '../helpers/logs';
import { mediaFixtures } from '../helpers/media';
import { verifiedMemberToken } from '../helpers/members';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}
const S3rver = S3rverModule as new (options: Record<string, unknown>) => S3rverInstance;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-storage-'));
const dataDir = path.join(tmp, 'data');
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const media = mediaFixtures();
const clip = media.h264Clip();

// One in-process S3 server for the file, on a free port, with a bucket per suite.
const BUCKETS = ['contract', 'e2e'];
let s3rver: S3rverInstance;
let endpoint: string;
const clients: S3Client[] = [];
const s3Config = (bucket: string, prefix = ''): MediaS3Config => ({
  bucket,
  region: 'us-east-1',
  endpoint,
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
  prefix,
});
function rawClient() {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(tmp, 's3rver'),
    configureBuckets: BUCKETS.map((name) => ({ name })),
  });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  // Before anything reads the configuration, as an operator's environment would be.
  Object.assign(process.env, {
    MEDIA_S3_BUCKET: 'e2e',
    MEDIA_S3_ENDPOINT: endpoint,
    MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
    MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER',
    MEDIA_S3_PREFIX: 'chrysalis',
  });
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  s3rver.httpServer.closeAllConnections();
  await s3rver.close();
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

describe('media storage configuration', () => {
  const base = { DATA_DIR: dataDir };

  it('is off without MEDIA_S3_BUCKET', () => {
    expect(loadConfig(base).mediaS3).toBeNull();
  });

  it('maps MEDIA_S3_* and defaults the region and path style', () => {
    const keys = { MEDIA_S3_ACCESS_KEY_ID: 'id', MEDIA_S3_SECRET_ACCESS_KEY: 'secret' };
    expect(loadConfig({ ...base, ...keys, MEDIA_S3_BUCKET: 'media' }).mediaS3).toEqual({
      bucket: 'media',
      region: 'us-east-1',
      endpoint: undefined,
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: false,
      prefix: '',
    });
    expect(
      loadConfig({
        ...base,
        ...keys,
        MEDIA_S3_BUCKET: 'media',
        MEDIA_S3_ENDPOINT: 'http://minio:9000/',
        MEDIA_S3_REGION: 'auto',
        MEDIA_S3_PREFIX: '/site/media/',
      }).mediaS3,
    ).toMatchObject({ endpoint: 'http://minio:9000', region: 'auto', forcePathStyle: true, prefix: 'site/media' });
    expect(
      loadConfig({
        ...base,
        ...keys,
        MEDIA_S3_BUCKET: 'media',
        MEDIA_S3_ENDPOINT: 'https://r2.example.com',
        MEDIA_S3_FORCE_PATH_STYLE: 'false',
      }).mediaS3,
    ).toMatchObject({ forcePathStyle: false });
  });

  it('names each missing or bad variable, without echoing secrets', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems;
      }
      throw new Error('expected a ConfigError');
    };
    expect(problems({ MEDIA_S3_BUCKET: 'media' })).toEqual([
      { variable: 'MEDIA_S3_ACCESS_KEY_ID', message: expect.stringMatching(/required when MEDIA_S3_BUCKET is set/) },
      { variable: 'MEDIA_S3_SECRET_ACCESS_KEY', message: expect.stringMatching(/required when MEDIA_S3_BUCKET is set/) },
    ]);
    expect(problems({ MEDIA_S3_BUCKET: 'media', MEDIA_S3_ACCESS_KEY_ID: 'id' }).map((p) => p.variable)).toEqual([
      'MEDIA_S3_SECRET_ACCESS_KEY',
    ]);
    expect(
      problems({ MEDIA_S3_ENDPOINT: 'http://minio:9000', MEDIA_S3_SECRET_ACCESS_KEY: 'hunter2' }).map((p) => p.variable),
    ).toEqual(['MEDIA_S3_BUCKET']);
    const keys = { MEDIA_S3_BUCKET: 'media', MEDIA_S3_ACCESS_KEY_ID: 'id', MEDIA_S3_SECRET_ACCESS_KEY: 'secret' };
    expect(problems({ ...keys, MEDIA_S3_ENDPOINT: 'minio:9000' })[0]).toMatchObject({
      variable: 'MEDIA_S3_ENDPOINT',
      message: expect.stringMatching(/http\(s\) URL/),
    });
    expect(problems({ ...keys, MEDIA_S3_FORCE_PATH_STYLE: 'maybe' })[0]).toMatchObject({
      variable: 'MEDIA_S3_FORCE_PATH_STYLE',
      message: expect.stringMatching(/true or false/),
    });
    expect(problems({ ...keys, MEDIA_S3_PREFIX: 'a/../b' })[0]!.variable).toBe('MEDIA_S3_PREFIX');
    expect(problems({ ...keys, MEDIA_S3_BUCKET: 'no/slashes' })[0]!.variable).toBe('MEDIA_S3_BUCKET');
    expect(
      JSON.stringify(problems({ MEDIA_S3_BUCKET: 'x', MEDIA_S3_ACCESS_KEY_ID: 'id', MEDIA_S3_SECRET_ACCESS_KEY: 'hunter2' })),
    ).not.toMatch(/hunter2/);
  });
});

type Case = [kind: string, make: (dir: string) => MediaStorage];
const CASES: Case[] = [
  ['local folder', (dir) => new LocalMediaStorage(dir)],
  ['S3 (s3rver)', (dir) => new S3MediaStorage(s3Config('contract', `run-${path.basename(dir)}`), dir)],
];

describe.each(CASES)('media storage contract: %s', (_kind, make) => {
  let dir: string;
  let storage: MediaStorage;
  let n = 0;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmp, 'contract-'));
    storage = make(dir);
  });

  /** A fresh local file with these bytes, as the pipeline's work folder would hold. */
  function localFile(bytes: Buffer | string): string {
    const file = path.join(dir, 'incoming', `file-${n++}.bin`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    return file;
  }
  const put = (key: string, bytes: Buffer | string = key) => storage.putFile(key, localFile(bytes), 'application/octet-stream');
  const s3CacheFiles = () =>
    existsSync(path.join(dir, 'work', 's3-cache')) ? readdirSync(path.join(dir, 'work', 's3-cache')) : [];

  it('stores a file, then stats and reads it whole and in byte ranges', async () => {
    const bytes = randomBytes(100_000);
    const file = localFile(bytes);
    await storage.putFile('videos/v1/web.mp4', file, 'video/mp4');
    expect(existsSync(file)).toBe(false);

    const info = await storage.stat('videos/v1/web.mp4');
    expect(info?.size).toBe(bytes.length);
    expect(Number.isFinite(info?.modified.getTime())).toBe(true);
    expect(await readAll(await storage.read('videos/v1/web.mp4'))).toEqual(bytes);
    expect(await readAll(await storage.read('videos/v1/web.mp4', { start: 1000, end: 1999 }))).toEqual(
      bytes.subarray(1000, 2000),
    );
    expect(await readAll(await storage.read('videos/v1/web.mp4', { start: 0, end: 1 }))).toEqual(bytes.subarray(0, 2));
    expect(await readAll(await storage.read('videos/v1/web.mp4', { start: 99_990, end: 99_999 }))).toEqual(
      bytes.subarray(99_990),
    );
  });

  it('replaces an object stored again under the same key', async () => {
    await put('videos/v1/thumbnail.jpg', 'first');
    await put('videos/v1/thumbnail.jpg', 'second, longer');
    expect((await readAll(await storage.read('videos/v1/thumbnail.jpg'))).toString()).toBe('second, longer');
  });

  it('gives a local path with the same bytes, and release removes any temporary copy', async () => {
    const bytes = randomBytes(50_000);
    await put('originals/o1.mp4', bytes);
    const local = await storage.openLocal('originals/o1.mp4');
    expect(readFileSync(local.path)).toEqual(bytes);
    await local.release();
    expect(s3CacheFiles()).toEqual([]);
    expect((await storage.stat('originals/o1.mp4'))?.size).toBe(bytes.length);
  });

  it('stats a missing key as null', async () => {
    expect(await storage.stat('videos/missing/web.mp4')).toBeNull();
    expect(await storage.stat('videos/v1')).toBeNull(); // a "folder" is not an object
  });

  it('deletes a key and everything under it, but not siblings that share a name prefix', async () => {
    for (const key of [
      'videos/a/web.mp4',
      'videos/a/hls/720p/seg-1.m4s',
      'videos/ab/x.jpg',
      'videos/a-b.jpg',
      'originals/a.mp4',
      'originals/a.mp4x',
    ])
      await put(key);
    await storage.deletePrefix('videos/a');
    await storage.deletePrefix('originals/a.mp4');
    await storage.deletePrefix('videos/never-stored');
    const present = async (key: string) => (await storage.stat(key)) !== null;
    expect(await present('videos/a/web.mp4')).toBe(false);
    expect(await present('videos/a/hls/720p/seg-1.m4s')).toBe(false);
    expect(await present('originals/a.mp4')).toBe(false);
    expect(await present('videos/ab/x.jpg')).toBe(true);
    expect(await present('videos/a-b.jpg')).toBe(true);
    expect(await present('originals/a.mp4x')).toBe(true);
  });

  it('refuses keys that escape the storage root', async () => {
    const file = localFile('x');
    await expect(storage.putFile('../escaped.mp4', file, 'video/mp4')).rejects.toThrow(/escapes the storage root/);
    await expect(storage.stat('videos/../../etc/passwd')).rejects.toThrow(/escapes the storage root/);
    await expect(storage.openLocal('../../escaped')).rejects.toThrow(/escapes the storage root/);
    await expect(storage.deletePrefix('..')).rejects.toThrow(/escapes the storage root/);
    await expect(storage.deletePrefix('')).rejects.toThrow(/escapes the storage root/);
    expect(existsSync(path.join(dir, 'escaped.mp4'))).toBe(false);
  });
});

describe('an S3 media store that cannot be reached', () => {
  it('is a 503 with Retry-After for the upload, logged as a storage failure, not a 500', async () => {
    const dir = mkdtempSync(path.join(tmp, 's3-down-'));
    writeFileSync(path.join(dir, 'clip'), 'bytes');
    // A port nothing listens on: the store is down, as during an outage of the bucket's service.
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const down = new S3MediaStorage({ ...s3Config('contract', 'down'), endpoint: `http://127.0.0.1:${closed}` }, dir);
    clients.push(down.client);
    const error = await down.putFile('videos/x/web.mp4', path.join(dir, 'clip'), 'video/mp4').then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).not.toBeNull();
    const logs = captureLogs();
    const answer = storageFailure(error, 'storing');
    logs.restore();
    expect({ status: answer?.status, message: answer?.message, retryAfter: answer?.headers['Retry-After'] }).toEqual({
      status: 503,
      message: STORAGE_BUSY_MESSAGE,
      retryAfter: '30',
    });
    expect(logs.at(LEVEL.error)).toEqual([expect.objectContaining({ component: 'upload', step: 'storing' })]);
    // Not taken for a lost database connection, whose 503 says something else.
    expect(isDatabaseConnectionLoss(error)).toBe(false);
  });
  it('is a 507 for the upload when the store refuses us (a bucket that is not there): our configuration, logged for an operator', async () => {
    const dir = mkdtempSync(path.join(tmp, 's3-refused-'));
    writeFileSync(path.join(dir, 'clip'), 'bytes');
    const refused = new S3MediaStorage(s3Config('no-such-bucket', 'refused'), dir);
    clients.push(refused.client);
    const error = await refused.putFile('videos/x/web.mp4', path.join(dir, 'clip'), 'video/mp4').then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ $metadata: { httpStatusCode: 404 } });
    const logs = captureLogs();
    const answer = storageFailure(error, 'storing');
    logs.restore();
    expect({ status: answer?.status, message: answer?.message }).toEqual({ status: 507, message: STORAGE_BROKEN_MESSAGE });
    expect(logs.at(LEVEL.error)).toHaveLength(1);
  });
});

describe('S3 media storage specifics', () => {
  let dir: string;
  let storage: S3MediaStorage;
  let client: S3Client;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmp, 's3-'));
    storage = new S3MediaStorage(s3Config('contract', 'specifics'), dir);
    clients.push(storage.client);
    client = rawClient();
  });

  it('sets content type and a long immutable cache on media, none on originals', async () => {
    writeFileSync(path.join(dir, 'playlist'), '#EXTM3U\n');
    await storage.putFile('videos/c/hls/master.m3u8', path.join(dir, 'playlist'), 'application/vnd.apple.mpegurl');
    writeFileSync(path.join(dir, 'original'), 'bytes');
    await storage.putFile('originals/c.mp4', path.join(dir, 'original'), 'application/octet-stream');
    const head = (Key: string) => client.send(new HeadObjectCommand({ Bucket: 'contract', Key }));
    expect(await head('specifics/videos/c/hls/master.m3u8')).toMatchObject({
      ContentType: 'application/vnd.apple.mpegurl',
      CacheControl: 'public, max-age=31536000, immutable',
    });
    expect(await head('specifics/originals/c.mp4')).toMatchObject({ CacheControl: 'private, no-store' });
  });

  it('uploads a file larger than one part in several parts, byte for byte', async () => {
    const bytes = randomBytes(17 * 1024 * 1024 + 123);
    const file = path.join(dir, 'big.mp4');
    writeFileSync(file, bytes);
    const send = jest.spyOn(storage.client, 'send');
    try {
      await storage.putFile('originals/big.mp4', file, 'video/mp4');
      const commands = send.mock.calls.map(([command]) => command.constructor.name);
      expect(commands.filter((name) => name === 'UploadPartCommand')).toHaveLength(3); // 8 + 8 + 1 MiB
      expect(commands).toContain('CompleteMultipartUploadCommand');
    } finally {
      send.mockRestore();
    }
    expect(existsSync(file)).toBe(false);
    expect((await storage.stat('originals/big.mp4'))?.size).toBe(bytes.length);
    const boundary = 8 * 1024 * 1024;
    expect(await readAll(await storage.read('originals/big.mp4', { start: boundary - 10, end: boundary + 9 }))).toEqual(
      bytes.subarray(boundary - 10, boundary + 10),
    );
    // Buffer.equals, not toEqual: Jest's deep equality takes most of a minute on 17 MB.
    expect((await readAll(await storage.read('originals/big.mp4'))).equals(bytes)).toBe(true);
  });

  it('deletes a full list page of keys', async () => {
    const keys = Array.from({ length: 1_000 }, (_, i) => `specifics/videos/many/hls/seg-${String(i).padStart(4, '0')}.m4s`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(
        keys.slice(i, i + 50).map((Key) => client.send(new PutObjectCommand({ Bucket: 'contract', Key, Body: 'x' }))),
      );
    }
    await client.send(new PutObjectCommand({ Bucket: 'contract', Key: 'specifics/videos/many-more/keep.jpg', Body: 'x' }));
    await storage.deletePrefix('videos/many');
    const left = await client.send(new ListObjectsV2Command({ Bucket: 'contract', Prefix: 'specifics/videos/many' }));
    expect((left.Contents ?? []).map((object) => object.Key)).toEqual(['specifics/videos/many-more/keep.jpg']);
  });

  // s3rver cannot hand out a second list page on Node 24 (its continuation tokens use DES,
  // which OpenSSL 3 no longer offers), so the paging is checked against a scripted client.
  it('follows list pages and deletes in batches of at most 1000, the exact key included', async () => {
    const scripted = new S3MediaStorage(s3Config('contract', 'p'), dir);
    const pages = [
      { keys: 1000, token: 'page-2' },
      { keys: 1000, token: 'page-3' },
      { keys: 500, token: undefined },
    ];
    const listed: (string | undefined)[] = [];
    const deleted: string[][] = [];
    jest.spyOn(scripted.client, 'send').mockImplementation((async (command: {
      constructor: { name: string };
      input: Record<string, unknown>;
    }) => {
      if (command.constructor.name === 'ListObjectsV2Command') {
        expect(command.input.Prefix).toBe('p/videos/v/');
        listed.push(command.input.ContinuationToken as string | undefined);
        const page = pages[listed.length - 1]!;
        const Contents = Array.from({ length: page.keys }, (_, i) => ({ Key: `p/videos/v/${listed.length}-${i}` }));
        return { Contents, IsTruncated: Boolean(page.token), NextContinuationToken: page.token };
      }
      deleted.push((command.input.Delete as { Objects: { Key: string }[] }).Objects.map((object) => object.Key));
      return {};
    }) as never);
    await scripted.deletePrefix('videos/v');
    scripted.client.destroy();
    expect(listed).toEqual([undefined, 'page-2', 'page-3']);
    expect(deleted.map((batch) => batch.length)).toEqual([1000, 1000, 501]);
    expect(deleted[0]![0]).toBe('p/videos/v');
    expect(new Set(deleted.flat()).size).toBe(2501);
  });
});

describe.each(ENGINES)('upload and processing into S3 on %s', (engine) => {
  let database: TestDatabase;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    token = await verifiedMemberToken(database.db, 'bucketeer');
  });
  afterAll(() => database.destroy());

  it('stores the original, web MP4 and thumbnail in the bucket and nothing under DATA_DIR/media', async () => {
    expect(getMediaStorage().kind).toBe('s3');
    clients.push((getMediaStorage() as S3MediaStorage).client);

    const form = new FormData();
    form.append('title', 'Into the bucket');
    form.append('category', 'Beta');
    form.append('video', new Blob([readFileSync(clip)]), 'clip.mp4');
    const response = await call(upload, '/api/videos/upload', { form, bearer: token });
    expect(response.status).toBe(201);
    const id = (response.body.video as { _id: string })._id;

    const row = async () => (await database.db.select().from(videos).where(eq(videos.id, id)))[0]!;
    const worker = startWorker(database.db, { handlers: JOB_HANDLERS, pollMs: 20, baseBackoffMs: 1 });
    const deadline = Date.now() + 45_000;
    try {
      while ((await row()).processingState !== 'ready' && (await row()).processingState !== 'failed' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await worker.stop();
    }
    const video = await row();
    expect(video).toMatchObject({ processingState: 'ready', processingError: null });

    const client = rawClient();
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'e2e', Prefix: 'chrysalis/' }));
    const keys = (listed.Contents ?? []).map((object) => object.Key);
    expect(keys).toEqual(
      expect.arrayContaining([
        `chrysalis/originals/${video.sourceKey}`,
        `chrysalis/videos/${id}/web.mp4`,
        `chrysalis/videos/${id}/thumbnail.jpg`,
      ]),
    );
    const original = listed.Contents!.find((object) => object.Key === `chrysalis/originals/${video.sourceKey}`)!;
    expect(original.Size).toBe(readFileSync(clip).length);
    const thumbnail = await readAll(await getMediaStorage().read(`videos/${id}/thumbnail.jpg`, { start: 0, end: 1 }));
    expect(thumbnail).toEqual(Buffer.from([0xff, 0xd8]));

    // Files left on disk (empty folders do not matter): the original's temporary copy is gone too.
    const filesUnder = (sub: string) =>
      existsSync(path.join(dataDir, sub))
        ? readdirSync(path.join(dataDir, sub), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
        : [];
    expect(filesUnder('media')).toEqual([]);
    expect(filesUnder('quarantine')).toEqual([]);
    expect(filesUnder('work')).toEqual([]);
  });
});
