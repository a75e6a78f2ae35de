import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import sharp from 'sharp';

import { GET as listVideos } from '@/app/api/videos/route';
import { GET as mediaRoute } from '@/app/media/videos/[streamVideoId]/[...file]/route';
import { installDatabase } from '@/lib/db';
import { videos, type Job, type Video } from '@/lib/db/schema';
import { THUMBNAIL_WIDTHS, thumbnailVariantFile } from '@/lib/media/thumbnails';
import { makeThumbnailVariants } from '@/lib/server/media/thumbnail-variants';
import { resetLimiters } from '@/lib/server/rate-limit';
import { mediaKeys, setMediaStorage } from '@/lib/server/storage';
import { thumbnailBackfill } from '@/lib/server/videos/thumbnail-backfill';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

/*
 * The thumbnail's WebP widths (decision 027): what processing makes of the
 * JPEG, and how the media route serves them: a year in browsers for public
 * videos, private for previews, 404 for any version but the current one.
 */

const tmp = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-thumbs-'));
const dataDir = path.join(tmp, 'data');
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A 640×360 JPEG with detail (a gradient under noise), like a video frame. */
async function frameJpeg(file: string, width = 640, height = 360): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = ((i / 3) % width) * (255 / width) + ((i * 7919) % 41);
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, jpeg);
  return jpeg;
}

describe('makeThumbnailVariants', () => {
  it('writes each WebP width beside the JPEG, smaller than it, and names them by its hash', async () => {
    const file = path.join(tmp, 'made', 'thumbnail.jpg');
    const jpeg = await frameJpeg(file);
    const version = await makeThumbnailVariants(file);
    expect(version).toBe(createHash('sha256').update(jpeg).digest('hex').slice(0, 16));
    for (const width of THUMBNAIL_WIDTHS) {
      const webp = readFileSync(path.join(tmp, 'made', `thumbnail-${width}.webp`));
      expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width, height: (360 * width) / 640 });
      expect(webp.length).toBeLessThan(jpeg.length);
    }
  });

  it('refuses a file that is not a picture, and a picture too large to decode safely', async () => {
    const notImage = path.join(tmp, 'bad', 'thumbnail.jpg');
    mkdirSync(path.dirname(notImage), { recursive: true });
    writeFileSync(notImage, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('not a jpeg\0\0')]));
    await expect(makeThumbnailVariants(notImage)).rejects.toThrow();
    const huge = path.join(tmp, 'huge', 'thumbnail.jpg');
    mkdirSync(path.dirname(huge), { recursive: true });
    writeFileSync(
      huge,
      await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#808080' } })
        .jpeg()
        .toBuffer(),
    );
    await expect(makeThumbnailVariants(huge)).rejects.toThrow(/pixel limit/i);
  });
});

describe.each(ENGINES)('thumbnail variants through the media route on %s', (engine) => {
  let database: TestDatabase;
  let ownerToken: string;
  let published: Video;
  let pending: Video;
  let legacy: Video;
  let version: string;

  const get = (video: Video, file: string, bearer?: string) =>
    call(mediaRoute, `/media/videos/${video.streamVideoId}/${file}`, {
      params: { streamVideoId: video.streamVideoId, file: file.split('/') },
      bearer,
    });

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    setMediaStorage(null);
    ownerToken = await verifiedMemberToken(database.db, `thumbs_${engine}`);
    const owner = await userId(database.db, `thumbs_${engine}`);
    legacy = await insertVideo(database.db, owner, { title: 'Processed before the variants' });
    const made = path.join(tmp, `variants-${engine}`, 'thumbnail.jpg');
    await frameJpeg(made);
    version = await makeThumbnailVariants(made);
    published = await insertVideo(database.db, owner, { thumbnailVersion: version });
    pending = await insertVideo(database.db, owner, {
      thumbnailVersion: version,
      moderationStatus: 'pending',
      publishedAt: null,
    });
    for (const video of [published, pending, legacy]) {
      const dir = path.join(dataDir, 'media', mediaKeys.videoPrefix(video.id));
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'thumbnail.jpg'), readFileSync(made));
      if (video !== legacy)
        for (const width of THUMBNAIL_WIDTHS)
          writeFileSync(
            path.join(dir, `thumbnail-${width}.webp`),
            readFileSync(path.join(path.dirname(made), `thumbnail-${width}.webp`)),
          );
    }
  }, 180_000);
  afterAll(() => database.destroy());

  it('serves a public video’s variants as WebP, cached a year by browsers and an hour by shared caches', async () => {
    for (const width of THUMBNAIL_WIDTHS) {
      const response = await get(published, thumbnailVariantFile(version, width));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, s-maxage=3600, immutable');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      // Another site may show a public video's thumbnail.
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    }
    // The fixed-name JPEG keeps its hour: its bytes may change under the same URL.
    const jpeg = await get(published, 'thumbnail.jpg');
    expect(jpeg.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(jpeg.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('answers 404 for any version but the current one, and for a width that is not made', async () => {
    expect((await get(published, thumbnailVariantFile('0000000000000000', 640))).status).toBe(404);
    expect((await get(published, `thumbnail-${version}-1280.webp`)).status).toBe(404);
    expect((await get(published, `thumbnail-${version}-640.webp/..`)).status).toBe(404);
    // A video processed before the variants has none: its cards use the JPEG.
    expect((await get(legacy, thumbnailVariantFile(version, 640))).status).toBe(404);
  });

  it('keeps a pending video’s variants private: 404 to visitors, private to its owner', async () => {
    const visitor = await get(pending, thumbnailVariantFile(version, 320));
    expect(visitor.status).toBe(404);
    expect(visitor.headers.get('cache-control')).toBe('no-store');
    const owner = await get(pending, thumbnailVariantFile(version, 320), ownerToken);
    expect(owner.status).toBe(200);
    expect(owner.headers.get('cache-control')).toBe('private, max-age=300');
    // Only our own pages may embed an unpublished video's picture.
    expect(owner.headers.get('cross-origin-resource-policy')).toBe('same-site');
  });

  it('stops serving a public video’s variants once moderation hides it', async () => {
    const hidden = await insertVideo(database.db, published.ownerId, { thumbnailVersion: version });
    const dir = path.join(dataDir, 'media', mediaKeys.videoPrefix(hidden.id));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'thumbnail-640.webp'),
      readFileSync(path.join(dataDir, 'media', mediaKeys.videoPrefix(published.id), 'thumbnail-640.webp')),
    );
    expect((await get(hidden, thumbnailVariantFile(version, 640))).status).toBe(200);
    await database.db.update(videos).set({ moderationStatus: 'rejected' }).where(eq(videos.id, hidden.id));
    expect((await get(hidden, thumbnailVariantFile(version, 640))).status).toBe(404);
  });

  it('gives videos processed before the variants theirs in the backfill job, and lists the version with each video', async () => {
    const before = await call(listVideos, '/api/videos?limit=50');
    const listedBefore = new Map(
      (before.body.videos as { streamVideoId: string; thumbnailVersion: string | null }[]).map((video) => [
        video.streamVideoId,
        video,
      ]),
    );
    expect(listedBefore.get(legacy.streamVideoId)).toMatchObject({ thumbnailVersion: null });
    // A video whose JPEG went missing is skipped, not a failure of the job.
    const lost = await insertVideo(database.db, published.ownerId, { title: 'JPEG lost' });
    await thumbnailBackfill({ payload: {} } as unknown as Job, heldJobContext());
    const [row] = await database.db.select().from(videos).where(eq(videos.id, legacy.id));
    expect(row!.thumbnailVersion).toBe(version);
    const [lostRow] = await database.db.select().from(videos).where(eq(videos.id, lost.id));
    expect(lostRow!.thumbnailVersion).toBeNull();
    const served = await get(legacy, thumbnailVariantFile(version, 480));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');

    const response = await call(listVideos, '/api/videos?limit=50');
    expect(response.status).toBe(200);
    const listed = response.body.videos as { streamVideoId: string; thumbnailUrl: string; thumbnailVersion: string | null }[];
    const byId = new Map(listed.map((video) => [video.streamVideoId, video]));
    expect(byId.get(published.streamVideoId)).toMatchObject({
      thumbnailUrl: `/media/videos/${published.streamVideoId}/thumbnail.jpg`,
      thumbnailVersion: version,
    });
    expect(byId.get(legacy.streamVideoId)).toMatchObject({ thumbnailVersion: version });
    expect(byId.has(pending.streamVideoId)).toBe(false);
  });
});
