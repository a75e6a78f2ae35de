import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { GET as recent } from '@/app/api/videos/route';
import { installDatabase } from '@/lib/db';
import { jobs, users, videos } from '@/lib/db/schema';
import { verifyPassword } from '@/lib/server/auth/passwords';
import { DEMO_JOB_HANDLERS, seedDemoJob } from '@/lib/server/demo/jobs';
import { isVerifiedUploader } from '@/lib/server/verification';
import {
  DEMO_PLAN,
  DEMO_TAG,
  DEMO_TITLE_PREFIX,
  DEMO_USERNAME,
  demoClipArgs,
  demoSeedingEnabled,
  enqueueDemoSeedIfEmpty,
  SEED_DEMO_JOB,
  seedDemoContent,
} from '@/lib/server/demo/seed-demo';
import { startWorker } from '@/lib/server/jobs/worker';
import { getMediaStorage } from '@/lib/server/storage';
import { JOB_HANDLERS } from '@/lib/server/videos/processing';
import { PROCESS_VIDEO_JOB } from '@/lib/server/videos/upload';
import { CATEGORIES } from '@/lib/site';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-demo-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// Small values keep the real pipeline fast here; the default plan is checked separately without encoding it all.
const SMALL = { count: 3, durationSeconds: 2 };

describe('SEED_DEMO', () => {
  it('is on unless set to 0, and refuses junk', () => {
    expect(demoSeedingEnabled({})).toBe(true);
    expect(demoSeedingEnabled({ SEED_DEMO: '' })).toBe(true);
    expect(demoSeedingEnabled({ SEED_DEMO: '1' })).toBe(true);
    expect(demoSeedingEnabled({ SEED_DEMO: '0' })).toBe(false);
    expect(demoSeedingEnabled({ SEED_DEMO: 'false' })).toBe(false);
    expect(() => demoSeedingEnabled({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO must be 1/);
  });
});

describe('the default demo plan', () => {
  it('has twelve labelled, varied clips over all three categories', () => {
    expect(DEMO_PLAN).toHaveLength(12);
    expect(new Set(DEMO_PLAN.map((clip) => clip.category))).toEqual(new Set(CATEGORIES));
    expect(new Set(DEMO_PLAN.map((clip) => clip.title)).size).toBe(12);
    expect(new Set(DEMO_PLAN.map((clip) => `${clip.width}x${clip.height}`))).toEqual(new Set(['640x360', '1280x720']));
    expect(new Set(DEMO_PLAN.map((clip) => clip.source.split('=')[0])).size).toBeGreaterThanOrEqual(9);
    for (const clip of DEMO_PLAN) {
      expect(clip.title.startsWith(DEMO_TITLE_PREFIX)).toBe(true);
      expect(clip.title.length).toBeLessThanOrEqual(120);
      expect(clip.tags).toContain(DEMO_TAG);
      expect(clip.seconds).toBeGreaterThanOrEqual(6);
      expect(clip.seconds).toBeLessThanOrEqual(10);
    }
  });

  it('gives ffmpeg a filter graph it accepts for every clip (a fraction of a second each)', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-demo-graphs-'));
    try {
      for (const [index, clip] of DEMO_PLAN.entries()) {
        const file = path.join(out, `${index}.mp4`);
        execFileSync('ffmpeg', demoClipArgs(clip, file, { seconds: 0.2, label: false }));
        expect(statSync(file).size).toBeGreaterThan(0);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('demo content on an empty embedded database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    installDatabase(database);
  });
  afterAll(() => database.destroy());

  const demoVideos = () => database.db.select().from(videos).orderBy(videos.publishedAt);
  const seedJob = async () => (await database.db.select().from(jobs).where(eq(jobs.type, SEED_DEMO_JOB)))[0];

  it('queues one seed-demo job, however often start-up asks', async () => {
    expect(await enqueueDemoSeedIfEmpty(database.db, SMALL)).toBe(true);
    expect(await enqueueDemoSeedIfEmpty(database.db, SMALL)).toBe(false);
    expect(await database.db.select().from(jobs)).toEqual([
      expect.objectContaining({ type: SEED_DEMO_JOB, dedupeKey: SEED_DEMO_JOB, status: 'queued' }),
    ]);
  });

  it('makes labelled, approved demo videos that the real pipeline processes to ready, with thumbnails in storage', async () => {
    const handlers = { ...DEMO_JOB_HANDLERS, [PROCESS_VIDEO_JOB]: JOB_HANDLERS[PROCESS_VIDEO_JOB]! };
    const worker = startWorker(database.db, { handlers, pollMs: 20, baseBackoffMs: 1 });
    const deadline = Date.now() + 90_000;
    try {
      const finished = async () =>
        (await seedJob())?.status === 'done' && (await demoVideos()).every((video) => video.processingState === 'ready');
      while (!(await finished()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await worker.stop();
    }
    expect(await seedJob()).toMatchObject({ status: 'done', attempts: 1 });

    const [creator] = await database.db.select().from(users).where(eq(users.username, DEMO_USERNAME));
    expect(creator).toMatchObject({ isAdmin: false, emailVerifiedAt: expect.any(Date) });
    expect(Number(creator!.dateOfBirth.slice(0, 4))).toBeLessThanOrEqual(new Date().getFullYear() - 18);
    expect(await verifyPassword('', creator!.passwordHash)).toBe(false);
    // Its videos are approved, so it is a verified uploader, as the approval gate requires.
    expect(await isVerifiedUploader(database.db, creator!.id)).toBe(true);

    const rows = await demoVideos();
    expect(rows).toHaveLength(SMALL.count);
    for (const row of rows) {
      expect(row).toMatchObject({
        ownerId: creator!.id,
        processingState: 'ready',
        processingError: null,
        moderationStatus: 'approved',
        publishedAt: expect.any(Date),
        thumbnailKey: `videos/${row.id}/thumbnail.jpg`,
        webMp4Key: `videos/${row.id}/web.mp4`,
      });
      expect(row.title.startsWith(DEMO_TITLE_PREFIX)).toBe(true);
      expect(row.description).toMatch(/synthetic demo content/i);
      expect(row.tags).toContain(DEMO_TAG);
      expect(row.views).toBeGreaterThan(0);
      expect(row.durationSeconds).toBeCloseTo(SMALL.durationSeconds, 0);
      expect(await getMediaStorage().stat(row.thumbnailKey!)).toMatchObject({ size: expect.any(Number) });
      expect(await getMediaStorage().stat(row.webMp4Key!)).not.toBeNull();
    }
    // The plan's sizes survive the pipeline, and every category of the first clips is there.
    expect(rows.map((row) => `${row.width}x${row.height}`).sort()).toEqual(
      DEMO_PLAN.slice(0, SMALL.count)
        .map((clip) => `${clip.width}x${clip.height}`)
        .sort(),
    );

    // Public at once, newest first in plan order (publication times are spread over the last days).
    const list = await call(recent, '/api/videos?limit=12&page=1');
    expect((list.body.videos as { title: string }[]).map((video) => video.title)).toEqual(
      DEMO_PLAN.slice(0, SMALL.count).map((clip) => clip.title),
    );
    const times = rows.map((row) => row.publishedAt!.getTime());
    expect(new Set(times).size).toBe(SMALL.count);
    expect(Date.now() - Math.min(...times)).toBeLessThan(4 * 24 * 3_600_000);
  });

  it('adds nothing when it runs again, and start-up no longer queues it', async () => {
    const job = (await seedJob())!;
    await seedDemoJob(job, heldJobContext());
    expect(await demoVideos()).toHaveLength(SMALL.count);
    expect(await database.db.select().from(users)).toHaveLength(1);
    expect(await enqueueDemoSeedIfEmpty(database.db)).toBe(false);
    expect(await database.db.select().from(jobs).where(eq(jobs.type, SEED_DEMO_JOB))).toHaveLength(1);
  });
});

describe('a database that already has content', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    installDatabase(database);
  });
  afterAll(() => database.destroy());

  it('is never seeded: one member is enough for start-up to leave it alone', async () => {
    await database.db
      .insert(users)
      .values({ username: 'early_bird', email: 'early@example.org', passwordHash: 'x', dateOfBirth: '1990-01-01' });
    expect(await enqueueDemoSeedIfEmpty(database.db)).toBe(false);
    expect(await database.db.select().from(jobs)).toEqual([]);
  });

  it('and a seed job queued before a member uploaded makes nothing', async () => {
    await insertVideo(database.db, await userId(database.db, 'early_bird'), { title: 'my first upload' });
    expect(await seedDemoContent(SMALL)).toEqual({ created: 0, skipped: 'site-has-content' });
    expect((await database.db.select().from(videos)).map((video) => video.title)).toEqual(['my first upload']);
    expect(await database.db.select().from(users).where(eq(users.username, DEMO_USERNAME))).toEqual([]);
  });
});
