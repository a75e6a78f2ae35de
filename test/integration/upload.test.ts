import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { POST as upload } from '@/app/api/videos/upload/route';
import { installDatabase } from '@/lib/db';
import { jobs, videos } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { handleNodeUpload } from '@/lib/server/videos/upload-node';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { mediaFixtures } from '../helpers/media';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-upload-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
process.env.MAX_UPLOAD_BYTES = String(2 * 1024 * 1024);

const media = mediaFixtures();
const clip = media.h264Clip();
const audioOnly = media.audioOnly();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function uploadForm(file: Blob | null, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries({
    title: 'Morning transformation',
    description: 'A test clip',
    category: 'Sissy',
    tags: 'Sissy, training ,#Soft',
    ...fields,
  })) {
    form.append(key, value);
  }
  if (file) form.append('video', file, 'clip.mp4');
  return form;
}

const quarantined = () => {
  try {
    return readdirSync(path.join(dataDir, 'quarantine'));
  } catch {
    return [];
  }
};

describe.each(ENGINES)('video upload on %s', (engine) => {
  let database: TestDatabase;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    token = await verifiedMemberToken(database.db, 'uploader');
  });
  afterAll(() => database.destroy());

  it('stores a real video, checks it with ffprobe, and queues its processing', async () => {
    const response = await call(upload, '/api/videos/upload', {
      form: uploadForm(new Blob([readFileSync(clip)], { type: 'video/mp4' })),
      bearer: token,
    });
    expect(response.status).toBe(201);
    const video = response.body.video as Record<string, unknown>;
    expect(video).toMatchObject({
      title: 'Morning transformation',
      category: 'Sissy',
      tags: ['sissy', 'training', 'soft'],
      status: 'queued',
      moderationStatus: 'pending',
      width: 320,
      height: 240,
    });
    expect(video.streamVideoId).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(video.durationSeconds).toBeCloseTo(2, 0);

    const [row] = await database.db
      .select()
      .from(videos)
      .where(eq(videos.id, video._id as string));
    expect(readFileSync(path.join(dataDir, 'media', 'originals', row!.sourceKey))).toEqual(readFileSync(clip));
    const queued = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `process-video:${row!.id}`));
    expect(queued).toHaveLength(1);
    expect(quarantined()).toEqual([]);
  });

  it.each([
    [
      'a text file named .mp4',
      () => new Blob(['this is not a video at all'], { type: 'video/mp4' }),
      415,
      /not a video we can read/,
    ],
    ['an audio-only file', () => new Blob([readFileSync(audioOnly)]), 415, /no video picture/],
    ['a truncated video', () => new Blob([readFileSync(clip).subarray(0, 4000)]), 415, /damaged or incomplete/],
    ['an empty file', () => new Blob([]), 400, /empty/],
    [
      'a file far over the limit (refused from its declared length)',
      () => new Blob([new Uint8Array(4 * 1024 * 1024)]),
      413,
      /too large\. The limit is 2 MB/,
    ],
    [
      'a file just over the limit (stopped while streaming)',
      () => new Blob([new Uint8Array(2.5 * 1024 * 1024)]),
      413,
      /too large\. The limit is 2 MB/,
    ],
  ])('refuses %s with a clear error and keeps nothing', async (_label, makeFile, status, message) => {
    const before = (await database.db.select().from(videos)).length;
    const response = await call(upload, '/api/videos/upload', { form: uploadForm(makeFile()), bearer: token });
    expect(response.status).toBe(status);
    expect(response.body.message).toMatch(message);
    expect(await database.db.select().from(videos)).toHaveLength(before);
    expect(quarantined()).toEqual([]);
  });

  it.each([
    [{ title: '' }, 'Title is required'],
    [{ title: 'x'.repeat(121) }, 'Title must be at most 120 characters'],
    [{ category: 'Alpha' }, 'Category must be one of Sissy, Beta, Censor'],
    [{ tags: Array.from({ length: 16 }, (_, i) => `t${i}`).join(',') }, 'Use at most 15 tags'],
  ])('refuses fields %p: %p, and keeps nothing', async (fields, message) => {
    const response = await call(upload, '/api/videos/upload', {
      form: uploadForm(new Blob([readFileSync(clip)]), fields),
      bearer: token,
    });
    expect(response).toMatchObject({ status: 400, body: { message } });
    expect(quarantined()).toEqual([]);
  });

  it('needs a file, a login, and multipart', async () => {
    expect(await call(upload, '/api/videos/upload', { form: uploadForm(null), bearer: token })).toMatchObject({
      status: 400,
      body: { message: 'Choose a video file to upload.' },
    });
    expect((await call(upload, '/api/videos/upload', { form: uploadForm(new Blob([readFileSync(clip)])) })).status).toBe(401);
    expect((await call(upload, '/api/videos/upload', { json: { title: 'x' }, bearer: token })).status).toBe(415);
  });

  describe('handed over by the production server before Next (the raw Node request)', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((req, res) => void handleNodeUpload(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/videos/upload`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const send = (form: FormData, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', body: form, headers: { 'x-forwarded-for': '203.0.113.20', ...headers } });

    it('stores a real video exactly as the route does', async () => {
      const response = await send(
        uploadForm(new Blob([readFileSync(clip)], { type: 'video/mp4' }), { title: 'Through the bridge' }),
        { authorization: `Bearer ${token}` },
      );
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const { video } = (await response.json()) as { video: { _id: string; title: string; status: string } };
      expect(video).toMatchObject({ title: 'Through the bridge', status: 'queued' });
      const [row] = await database.db.select().from(videos).where(eq(videos.id, video._id));
      expect(readFileSync(path.join(dataDir, 'media', 'originals', row!.sourceKey))).toEqual(readFileSync(clip));
      expect(quarantined()).toEqual([]);
    });

    it('answers refusals with the same messages and keeps nothing', async () => {
      const before = (await database.db.select().from(videos)).length;
      const anonymous = await send(uploadForm(new Blob([readFileSync(clip)])));
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({ message: 'Please log in to continue.' });
      const notVideo = await send(uploadForm(new Blob(['plain text'])), { authorization: `Bearer ${token}` });
      expect(notVideo.status).toBe(415);
      expect(((await notVideo.json()) as { message: string }).message).toMatch(/not a video we can read/);
      const tooBig = await send(uploadForm(new Blob([new Uint8Array(2.5 * 1024 * 1024)])), { authorization: `Bearer ${token}` });
      expect(tooBig.status).toBe(413);
      // A cookie-authenticated upload from another site is refused (CSRF), as through Next.
      const crossSite = await send(uploadForm(new Blob([readFileSync(clip)])), {
        cookie: `chrysalis_session=${token}`,
        origin: 'https://elsewhere.example',
      });
      expect(crossSite.status).toBe(403);
      expect(await database.db.select().from(videos)).toHaveLength(before);
      expect(quarantined()).toEqual([]);
    });
  });
});
