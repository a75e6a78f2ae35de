import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { POST as upload } from '@/app/api/videos/upload/route';
import { installDatabase } from '@/lib/db';
import { jobs, videos } from '@/lib/db/schema';
import { startWorker } from '@/lib/server/jobs/worker';
import { probeVideo } from '@/lib/server/media/probe';
import { JOB_HANDLERS, videoDir } from '@/lib/server/videos/processing';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { mediaFixtures } from '../helpers/media';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-processing-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;

const media = mediaFixtures();
const h264 = media.h264Clip(3);
const mpeg4 = media.mpeg4Avi();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const indexFirst = (file: string) => {
  const bytes = readFileSync(file);
  return bytes.indexOf('moov') < bytes.indexOf('mdat');
};

describe.each(ENGINES)('video processing on %s', (engine) => {
  let database: TestDatabase;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    token = await verifiedMemberToken(database.db, 'maker');
  });
  afterAll(() => database.destroy());

  async function uploadFile(file: string, name: string): Promise<string> {
    const form = new FormData();
    form.append('title', name);
    form.append('category', 'Beta');
    form.append('video', new Blob([readFileSync(file)]), path.basename(file));
    const response = await call(upload, '/api/videos/upload', { form, bearer: token });
    expect(response.status).toBe(201);
    return (response.body.video as { _id: string })._id;
  }

  async function runJobsUntil(done: () => Promise<boolean>) {
    const worker = startWorker(database.db, { handlers: JOB_HANDLERS, pollMs: 20, baseBackoffMs: 1 });
    const deadline = Date.now() + 45_000;
    try {
      while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await worker.stop();
    }
  }

  const videoRow = async (id: string) => (await database.db.select().from(videos).where(eq(videos.id, id)))[0]!;

  it('remuxes a browser-ready H.264 upload with its index first and makes a thumbnail', async () => {
    expect(indexFirst(h264)).toBe(false);
    const id = await uploadFile(h264, 'remux me');
    await runJobsUntil(async () => (await videoRow(id)).processingState === 'ready');
    const row = await videoRow(id);
    expect(row).toMatchObject({ processingState: 'ready', processingError: null, thumbnailKey: `${id}/thumbnail.jpg`, width: 320, height: 240 });
    const web = path.join(videoDir(id), 'web.mp4');
    expect(indexFirst(web)).toBe(true);
    expect(await probeVideo(web)).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac' });
    expect(readFileSync(path.join(videoDir(id), 'thumbnail.jpg')).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it('transcodes what browsers cannot play to H.264', async () => {
    const id = await uploadFile(mpeg4, 'transcode me');
    await runJobsUntil(async () => (await videoRow(id)).processingState === 'ready');
    expect(await probeVideo(path.join(videoDir(id), 'web.mp4'))).toMatchObject({ videoCodec: 'h264', formatName: expect.stringContaining('mp4') });
  });

  it('shows the reason of a failure, retries, then gives up and marks the video failed', async () => {
    const id = await uploadFile(h264, 'will break');
    // The stored original gets damaged after the upload was accepted.
    writeFileSync(path.join(dataDir, 'media', 'originals', (await videoRow(id)).sourceKey), 'damaged');
    await runJobsUntil(async () => (await videoRow(id)).processingState === 'failed');
    const row = await videoRow(id);
    expect(row.processingState).toBe('failed');
    expect(row.processingError).toMatch(/not a video we can read/);
    const [job] = await database.db.select().from(jobs).where(eq(jobs.dedupeKey, `process-video:${id}`));
    expect(job).toMatchObject({ status: 'failed', attempts: 5 });
  });
});
