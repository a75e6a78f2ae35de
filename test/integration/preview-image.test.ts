import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { NextRequest } from 'next/server';
import sharp from 'sharp';

import { GET } from '@/app/preview-image/route';
import { installDatabase } from '@/lib/db';
import { resetLimiters } from '@/lib/server/rate-limit';
import { PREVIEW_IMAGE_SIZE, previewImagePath, previewOf } from '@/lib/server/videos/preview-image';

import { ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

/*
 * Link-preview pictures of the list pages (issue 36): a 1200 × 630 PNG of the list's public thumbnails, under a
 * key that changes with the list, kept a year under the key its page names; a branded card for an empty list.
 */

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-preview-image-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A 640 × 360 JPEG of one colour where the media storage keeps the video's thumbnail. */
async function writeThumbnail(videoId: string, colour: { r: number; g: number; b: number }) {
  const folder = path.join(dataDir, 'media', 'videos', videoId);
  mkdirSync(folder, { recursive: true });
  await sharp({ create: { width: 640, height: 360, channels: 3, background: colour } })
    .jpeg()
    .toFile(path.join(folder, 'thumbnail.jpg'));
}

const RED = { r: 230, g: 20, b: 20 };
const GREEN = { r: 20, g: 230, b: 20 };

/** The route's answer, its body as bytes (the helper `call` reads bodies as text). */
async function picture(query: string, headers: Record<string, string> = {}) {
  const response = await GET(new NextRequest(new URL(`/preview-image?${query}`, ORIGIN), { headers }), {
    params: Promise.resolve({}),
  });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe.each(ENGINES)('preview pictures on %s', (engine) => {
  let database: TestDatabase;
  let owner: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    await verifiedMemberToken(database.db, `previews_${engine}`);
    owner = await userId(database.db, `previews_${engine}`);
    const shown = await insertVideo(database.db, owner, { title: 'Red </script > lace', views: 10 });
    await writeThumbnail(shown.id, RED);
    // Unpublished and waiting for review: its thumbnail must not appear anywhere.
    const hidden = await insertVideo(database.db, owner, { title: 'Green secret', moderationStatus: 'pending', views: 999 });
    await writeThumbnail(hidden.id, GREEN);
  });

  afterAll(() => database.close());

  it('draws a 1200 × 630 PNG of the public thumbnails only, kept a year under the key its page names', async () => {
    expect(PREVIEW_IMAGE_SIZE).toEqual({ width: 1200, height: 630 });
    const preview = await previewOf({ list: 'category', name: 'Sissy' });
    expect(preview.alt).toBe('Sissy videos on Chrysalis: “Red </script > lace”');
    const url = new URL(previewImagePath({ list: 'category', name: 'Sissy' }, preview.key), ORIGIN);
    expect(url.pathname).toBe('/preview-image');

    const { response, body } = await picture(url.search.slice(1));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const { width, height, format } = await sharp(body).metadata();
    expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: 'png' });

    // One tile, centred under the heading: red, and no green pixel anywhere.
    const { data, info } = await sharp(body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3);
    const [r, g, b] = at(600, 360);
    expect(r).toBeGreaterThan(180);
    expect(g! + b!).toBeLessThan(120);
    let green = 0;
    for (let i = 0; i < data.length; i += 3) if (data[i + 1]! > 180 && data[i]! < 80) green += 1;
    expect(green).toBe(0);

    // The same picture again: 304 for its ETag; an old or missing key gets the picture of now for five minutes only.
    expect((await picture(url.search.slice(1), { 'If-None-Match': `"${url.searchParams.get('v')}"` })).response.status).toBe(304);
    const stale = await picture('list=category&name=Sissy&v=0123456789abcdef');
    expect(stale.response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(stale.body.equals(body)).toBe(true);
  });

  it('changes its key when the list changes', async () => {
    const before = (await previewOf({ list: 'home' })).key;
    const another = await insertVideo(database.db, owner, { title: 'Another', views: 5 });
    await writeThumbnail(another.id, RED);
    const after = await previewOf({ list: 'home' });
    expect(after.key).not.toBe(before);
    expect(after.videos.map((video) => video.title)).toEqual(['Red </script > lace', 'Another']);
  });

  it('is a branded card, not an error, for an empty list; a tag without videos does not get its name drawn', async () => {
    const empty = await previewOf({ list: 'category', name: 'Beta' });
    expect(empty).toMatchObject({ videos: [], alt: 'Chrysalis: Beta videos' });
    const { response, body } = await picture(`list=category&name=Beta&v=${empty.key}`);
    expect(response.status).toBe(200);
    expect(await sharp(body).metadata()).toMatchObject({ width: 1200, height: 630, format: 'png' });
    expect((await previewOf({ list: 'tag', name: 'anything at all' })).alt).toBe('Chrysalis: Top videos');
  });

  it('refuses lists it does not know', async () => {
    for (const query of ['list=nothing', 'list=category&name=Nope', 'list=tag', 'list=search&name=', 'list=home&v=not-a-key']) {
      expect((await picture(query)).response.status).toBe(400);
    }
  });
});
