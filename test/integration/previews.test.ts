import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { GET as getVideo } from '@/app/api/videos/[streamVideoId]/route';
import { GET as mediaRoute } from '@/app/media/videos/[streamVideoId]/[...file]/route';
import { installDatabase } from '@/lib/db';
import { videos, type Job, type Video } from '@/lib/db/schema';
import { PREVIEW_FILES, previewFileName } from '@/lib/media/previews';
import { makePreviews } from '@/lib/server/media/previews';
import { probeVideo } from '@/lib/server/media/probe';
import { resetLimiters } from '@/lib/server/rate-limit';
import { mediaKeys, setMediaStorage } from '@/lib/server/storage';
import { previewsBackfill } from '@/lib/server/videos/previews-backfill';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { mediaFixtures } from '../helpers/media';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

/*
 * The seek bar's storyboard and the card's preview clip (issue 35, parts 2 and 3): how the media route
 * serves them (versioned names, a year in browsers for public videos, private for unpublished ones) and
 * how the backfill gives them to videos packaged before them. The ladder's own run is in processing.test.ts.
 */

const tmp = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-previews-'));
const dataDir = path.join(tmp, 'data');
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const clip = mediaFixtures().sizedClip({ seconds: 5, width: 640, height: 360 });

describe.each(ENGINES)('storyboards and preview clips on %s', (engine) => {
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
  const stored = (video: Video, file: string) => path.join(dataDir, 'media', mediaKeys.videoPrefix(video.id), file);

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    setMediaStorage(null);
    ownerToken = await verifiedMemberToken(database.db, `previews_${engine}`);
    const owner = await userId(database.db, `previews_${engine}`);
    const made = path.join(tmp, `made-${engine}`);
    version = await makePreviews(clip, made, await probeVideo(clip));
    const withLadder = (id: string) => ({ id, hlsMasterKey: `videos/${id}/hls/master.m3u8`, hlsHeights: [360] });
    published = await insertVideo(database.db, owner, { ...withLadder(crypto.randomUUID()), previewsVersion: version });
    pending = await insertVideo(database.db, owner, {
      ...withLadder(crypto.randomUUID()),
      previewsVersion: version,
      moderationStatus: 'pending',
      publishedAt: null,
    });
    legacy = await insertVideo(database.db, owner, { ...withLadder(crypto.randomUUID()), title: 'Packaged before previews' });
    for (const video of [published, pending, legacy]) {
      mkdirSync(path.dirname(stored(video, 'web.mp4')), { recursive: true });
      copyFileSync(clip, stored(video, 'web.mp4'));
      if (video !== legacy) for (const file of PREVIEW_FILES) copyFileSync(path.join(made, file), stored(video, file));
    }
  }, 180_000);
  afterAll(() => database.destroy());

  it('serves a public video’s storyboard and clip under their version, cached a year by browsers', async () => {
    const types = { 'storyboard.vtt': 'text/vtt; charset=utf-8', 'storyboard.jpg': 'image/jpeg', 'preview.mp4': 'video/mp4' };
    for (const file of PREVIEW_FILES) {
      const response = await get(published, previewFileName(file, version));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(types[file]);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, s-maxage=3600, immutable');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    }
    const vtt = String((await get(published, previewFileName('storyboard.vtt', version))).body.raw);
    expect(vtt).toContain(`00:00:04.000 --> 00:00:05.000\nstoryboard-${version}.jpg#xywh=320,0,160,90`);
    // The clip plays in ranges, as the card's <video> asks for it.
    const range = await call(mediaRoute, `/media/videos/${published.streamVideoId}/${previewFileName('preview.mp4', version)}`, {
      params: { streamVideoId: published.streamVideoId, file: [previewFileName('preview.mp4', version)] },
      headers: { range: 'bytes=0-99' },
    });
    expect(range.status).toBe(206);
  });

  it('answers 404 for another version, a name that is not made, or a video without previews', async () => {
    expect((await get(published, previewFileName('storyboard.vtt', '0000000000000000'))).status).toBe(404);
    expect((await get(published, `preview-${version}.webm`)).status).toBe(404);
    expect((await get(published, 'storyboard.vtt')).status).toBe(404);
    expect((await get(published, `storyboard-${version}.vtt/..`)).status).toBe(404);
    expect((await get(legacy, previewFileName('storyboard.vtt', version))).status).toBe(404);
  });

  it('keeps an unpublished video’s previews to its owner, out of shared caches', async () => {
    const visitor = await get(pending, previewFileName('preview.mp4', version));
    expect(visitor.status).toBe(404);
    const owner = await get(pending, previewFileName('preview.mp4', version), ownerToken);
    expect(owner.status).toBe(200);
    expect(owner.headers.get('cache-control')).toBe('private, max-age=300');
    expect(owner.headers.get('cross-origin-resource-policy')).toBe('same-site');
  });

  it('gives videos packaged before previews theirs in the backfill, skips one whose MP4 is gone, and shows the version', async () => {
    const lost = await insertVideo(database.db, published.ownerId, {
      hlsMasterKey: 'videos/x/hls/master.m3u8',
      title: 'MP4 lost',
    });
    const before = await call(getVideo, `/api/videos/${legacy.streamVideoId}`, {
      params: { streamVideoId: legacy.streamVideoId },
    });
    expect(before.body.video).toMatchObject({ previewsVersion: null });
    await previewsBackfill({ payload: {} } as unknown as Job, heldJobContext());
    const [row] = await database.db.select().from(videos).where(eq(videos.id, legacy.id));
    // The same clip makes the same files, so the same version.
    expect(row!.previewsVersion).toBe(version);
    const [lostRow] = await database.db.select().from(videos).where(eq(videos.id, lost.id));
    expect(lostRow!.previewsVersion).toBeNull();
    for (const file of PREVIEW_FILES) expect(readFileSync(stored(legacy, file)).length).toBeGreaterThan(0);
    const clipMade = await probeVideo(stored(legacy, 'preview.mp4'));
    expect(clipMade).toMatchObject({ videoCodec: 'h264', audioCodec: null, height: 240 });
    expect(clipMade.durationSeconds).toBeGreaterThan(4.5);
    expect((await get(legacy, previewFileName('storyboard.jpg', version))).status).toBe(200);
    const after = await call(getVideo, `/api/videos/${legacy.streamVideoId}`, {
      params: { streamVideoId: legacy.streamVideoId },
    });
    expect(after.body.video).toMatchObject({ previewsVersion: version });
  });
});
