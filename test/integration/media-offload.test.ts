import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// @ts-expect-error -- s3rver ships no type declarations; the few members used are typed below.
import S3rverModule from 's3rver';
import { eq } from 'drizzle-orm';

import { GET as avatarRoute } from '@/app/media/avatars/[file]/route';
import { GET as mediaRoute, HEAD as mediaHead } from '@/app/media/videos/[streamVideoId]/[...file]/route';
import { getConfig, type MediaOffload } from '@/lib/config/server';
import { installDatabase } from '@/lib/db';
import { videos, type Video } from '@/lib/db/schema';
import { presignedMediaOrigin } from '@/lib/front/media-origin';
import { resetLimiters } from '@/lib/server/rate-limit';
import { getMediaStorage, mediaKeys, setMediaStorage } from '@/lib/server/storage';
import { S3MediaStorage } from '@/lib/server/storage/s3';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

/*
 * MEDIA_OFFLOAD (decision 021): after the app's access check, nginx sends the
 * file (x-accel) or the bucket does (redirect). What each mode answers, and
 * that unpublished videos' media are refused before anything is handed over.
 * One configuration per process, so each describe sets the mode on it.
 */

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}
const S3rver = S3rverModule as new (options: Record<string, unknown>) => S3rverInstance;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-offload-'));
const dataDir = path.join(tmp, 'data');
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MP4 = Buffer.concat([Buffer.from('\0\0\0\x18ftypmp42'), Buffer.alloc(4096, 7)]);
const PLAYLIST = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\n360p/index.m3u8\n';
const AVATAR = `${'ab'.repeat(12)}-256.webp`;

function setOffload(offload: MediaOffload) {
  getConfig().mediaOffload = offload;
}

const get = (video: Video, file: string, bearer?: string, headers: Record<string, string> = {}) =>
  call(mediaRoute, `/media/videos/${video.streamVideoId}/${file}`, {
    params: { streamVideoId: video.streamVideoId, file: file.split('/') },
    bearer,
    headers,
  });

describe.each(ENGINES)('media offload on %s', (engine) => {
  let database: TestDatabase;
  let ownerToken: string;
  let published: Video;
  let pending: Video;
  let removed: Video;
  let rejected: Video;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    setMediaStorage(null);
    ownerToken = await verifiedMemberToken(database.db, `offload_${engine}`);
    const owner = await userId(database.db, `offload_${engine}`);
    published = await insertVideo(database.db, owner);
    pending = await insertVideo(database.db, owner, { moderationStatus: 'pending', publishedAt: null });
    removed = await insertVideo(database.db, owner);
    rejected = await insertVideo(database.db, owner, { moderationStatus: 'rejected', publishedAt: null });
    for (const video of [published, pending, removed, rejected]) {
      const dir = path.join(dataDir, 'media', mediaKeys.videoPrefix(video.id));
      mkdirSync(path.join(dir, 'hls'), { recursive: true });
      writeFileSync(path.join(dir, 'web.mp4'), MP4);
      writeFileSync(path.join(dir, 'hls', 'master.m3u8'), PLAYLIST);
    }
    // Deleted: the row goes at once, its files wait for the background job.
    await database.db.delete(videos).where(eq(videos.id, removed.id));
    mkdirSync(path.join(dataDir, 'media', 'avatars'), { recursive: true });
    writeFileSync(path.join(dataDir, 'media', 'avatars', AVATAR), 'webp');
    // A new PGlite cluster and a password hash: slow on a busy 2-core runner.
  }, 180_000);
  afterAll(async () => {
    setOffload({ mode: 'none' });
    setMediaStorage(null);
    await database.destroy();
  });

  describe('none (the default): the app sends the bytes', () => {
    beforeAll(() => setOffload({ mode: 'none' }));

    it('answers a range itself, with no hand-over header', async () => {
      const response = await get(published, 'web.mp4', undefined, { range: 'bytes=4-11' });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes 4-11/${MP4.length}`);
      expect(response.body.raw).toBe('ftypmp42');
      expect(response.headers.get('x-accel-redirect')).toBeNull();
    });
  });

  describe('x-accel: nginx sends the file from disk', () => {
    beforeAll(() => setOffload({ mode: 'x-accel', accelPrefix: '/_media/' }));

    it('names the stored file under the internal location, with an empty body and the cache policy', async () => {
      const response = await get(published, 'web.mp4', undefined, { range: 'bytes=0-99' });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-accel-redirect')).toBe(`/_media/videos/${published.id}/web.mp4`);
      expect(response.headers.get('content-type')).toBe('video/mp4');
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      // Another site may show and play a public video's files; nginx copies this header (deploy/nginx.conf).
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      // Ranges, validators and length are nginx's work: the app sends nothing of the file.
      expect(response.body).toEqual({});
      expect(response.headers.get('content-range')).toBeNull();
      expect(response.headers.get('etag')).toBeNull();
    });

    it('hands over playlists and HEAD requests the same way', async () => {
      const playlist = await get(published, 'hls/master.m3u8');
      expect(playlist.headers.get('x-accel-redirect')).toBe(`/_media/videos/${published.id}/hls/master.m3u8`);
      expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
      expect(playlist.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const head = await call(mediaHead, `/media/videos/${published.streamVideoId}/web.mp4`, {
        method: 'HEAD',
        params: { streamVideoId: published.streamVideoId, file: ['web.mp4'] },
      });
      expect(head.headers.get('x-accel-redirect')).toBe(`/_media/videos/${published.id}/web.mp4`);
    });

    it('refuses a pending video to visitors before any hand-over, and hands it over privately to its owner', async () => {
      const visitor = await get(pending, 'web.mp4');
      expect(visitor.status).toBe(404);
      expect(visitor.headers.get('x-accel-redirect')).toBeNull();
      const owner = await get(pending, 'web.mp4', ownerToken);
      expect(owner.status).toBe(200);
      expect(owner.headers.get('x-accel-redirect')).toBe(`/_media/videos/${pending.id}/web.mp4`);
      expect(owner.headers.get('cache-control')).toBe('private, max-age=300');
      expect(owner.headers.get('cross-origin-resource-policy')).toBe('same-site');
    });

    it('refuses deleted and rejected videos, and names no file it does not know', async () => {
      for (const [video, bearer] of [
        [removed, undefined],
        [removed, ownerToken],
        [rejected, undefined],
      ] as const) {
        const response = await get(video, 'web.mp4', bearer);
        expect(response.status).toBe(404);
        expect(response.headers.get('x-accel-redirect')).toBeNull();
      }
      const unknown = await get(published, 'originals.mp4');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('x-accel-redirect')).toBeNull();
    });

    it('uses the configured internal location', async () => {
      setOffload({ mode: 'x-accel', accelPrefix: '/internal/chrysalis-media/' });
      try {
        const response = await get(published, 'web.mp4');
        expect(response.headers.get('x-accel-redirect')).toBe(`/internal/chrysalis-media/videos/${published.id}/web.mp4`);
      } finally {
        setOffload({ mode: 'x-accel', accelPrefix: '/_media/' });
      }
    });

    it('hands profile photos over with a year of caching, and only well-formed names', async () => {
      const photo = await call(avatarRoute, `/media/avatars/${AVATAR}`, { params: { file: AVATAR } });
      expect(photo.status).toBe(200);
      expect(photo.headers.get('x-accel-redirect')).toBe(`/_media/avatars/${AVATAR}`);
      expect(photo.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(photo.headers.get('content-type')).toBe('image/webp');
      const traversal = await call(avatarRoute, '/media/avatars/..%2Fsession-secret', { params: { file: '../session-secret' } });
      expect(traversal.status).toBe(404);
      expect(traversal.headers.get('x-accel-redirect')).toBeNull();
    });
  });

  describe('redirect: the bucket sends the file through a presigned URL', () => {
    let s3rver: S3rverInstance;
    let endpoint: string;

    beforeAll(async () => {
      s3rver = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: path.join(tmp, `s3rver-${engine}`),
        configureBuckets: [{ name: 'offload' }],
      });
      const { port } = await s3rver.run();
      endpoint = `http://127.0.0.1:${port}`;
      setMediaStorage(
        new S3MediaStorage(
          {
            bucket: 'offload',
            region: 'us-east-1',
            endpoint,
            accessKeyId: 'S3RVER',
            secretAccessKey: 'S3RVER',
            forcePathStyle: true,
            prefix: 'site',
          },
          dataDir,
        ),
      );
      const storage = getMediaStorage();
      for (const video of [published, pending]) {
        const staged = path.join(tmp, `${video.id}.mp4`);
        writeFileSync(staged, MP4);
        await storage.putFile(mediaKeys.webMp4(video.id), staged, 'video/mp4');
        const playlist = path.join(tmp, `${video.id}.m3u8`);
        writeFileSync(playlist, PLAYLIST);
        await storage.putFile(mediaKeys.hls(video.id, 'master.m3u8'), playlist, 'application/vnd.apple.mpegurl');
      }
      setOffload({ mode: 'redirect', redirectSeconds: 600 });
    });
    afterAll(async () => {
      setMediaStorage(null);
      s3rver.httpServer.closeAllConnections();
      await s3rver.close();
    });

    it('answers 302 to a short-lived URL on the bucket that serves the file, ranges included', async () => {
      const response = await get(published, 'web.mp4');
      expect(response.status).toBe(302);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      const location = new URL(response.headers.get('location')!);
      // The origin the Content-Security-Policy allows for media is the one the URLs point at.
      expect(location.origin).toBe(
        presignedMediaOrigin({
          MEDIA_OFFLOAD: 'redirect',
          MEDIA_S3_BUCKET: 'offload',
          MEDIA_S3_REGION: 'us-east-1',
          MEDIA_S3_ENDPOINT: endpoint,
          MEDIA_S3_FORCE_PATH_STYLE: undefined,
        }),
      );
      expect(location.pathname).toBe(`/offload/site/videos/${published.id}/web.mp4`);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('600');
      expect(location.searchParams.get('response-cache-control')).toBe('public, max-age=3600');

      const whole = await fetch(location);
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer())).toEqual(MP4);
      const range = await fetch(location, { headers: { range: 'bytes=4-11' } });
      expect(range.status).toBe(206);
      expect(await range.text()).toBe('ftypmp42');
    });

    it('keeps playlists on the app, so their relative segment URIs resolve back through it', async () => {
      const response = await get(published, 'hls/master.m3u8');
      expect(response.status).toBe(200);
      expect(response.headers.get('location')).toBeNull();
      expect(response.body.raw).toBe(PLAYLIST);
    });

    it('refuses a pending video to visitors without a URL, and gives its owner one with a private policy', async () => {
      const visitor = await get(pending, 'web.mp4');
      expect(visitor.status).toBe(404);
      expect(visitor.headers.get('location')).toBeNull();
      const owner = await get(pending, 'web.mp4', ownerToken);
      expect(owner.status).toBe(302);
      expect(new URL(owner.headers.get('location')!).searchParams.get('response-cache-control')).toBe('private, max-age=300');
    });

    it('leaves profile photos (always on local disk) to the app', async () => {
      const photo = await call(avatarRoute, `/media/avatars/${AVATAR}`, { params: { file: AVATAR } });
      expect(photo.status).toBe(200);
      expect(photo.headers.get('location')).toBeNull();
      expect(photo.body.raw).toBe('webp');
    });
  });
});
