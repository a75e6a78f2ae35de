import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { GET as moderationQueue } from '@/app/api/admin/videos/route';
import { GET as getVideo } from '@/app/api/videos/[streamVideoId]/route';
import { GET as myVideos } from '@/app/api/videos/mine/route';
import { POST as upload } from '@/app/api/videos/upload/route';
import { installDatabase } from '@/lib/db';
import { jobs, videos } from '@/lib/db/schema';
import { startWorker } from '@/lib/server/jobs/worker';
import { PROCESSING_FAILED_MESSAGE } from '@/lib/server/media/messages';
import { resetLimiters } from '@/lib/server/rate-limit';
import { JOB_HANDLERS } from '@/lib/server/videos/processing';
import { PROCESS_VIDEO_JOB } from '@/lib/server/videos/upload';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { mediaFixtures } from '../helpers/media';
import { insertVideo, userId } from '../helpers/videos';

/**
 * A failed video tells its uploader a fixed sentence. What went wrong
 * (ffmpeg's output, file system errors) names paths on the server: it
 * stays in the job's last_error, for admins.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-processing-errors-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;

const media = mediaFixtures();
const clip = media.h264Clip();
const indexOnly = media.indexOnlyMp4();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** What must never reach a member: server paths, tool names and their output, system error codes. */
const LEAKS = [dataDir, os.tmpdir(), '/tmp', 'ffmpeg', 'ffprobe', 'mov,mp4', 'ENOTDIR', 'ENOENT', 'EEXIST', 'work/'];

describe.each(ENGINES)('processing errors on %s', (engine) => {
  let database: TestDatabase;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    token = await verifiedMemberToken(database.db, 'uploader');
  });
  afterAll(() => database.destroy());

  async function uploadFile(file: string, title: string): Promise<{ id: string; streamVideoId: string; answer: string }> {
    const form = new FormData();
    form.append('title', title);
    form.append('category', 'Beta');
    form.append('video', new Blob([readFileSync(file)]), path.basename(file));
    const response = await call(upload, '/api/videos/upload', { form, bearer: token });
    expect(response.status).toBe(201);
    const video = response.body.video as { _id: string; streamVideoId: string };
    // One attempt is enough to fail for good: these failures would repeat.
    await database.db
      .update(jobs)
      .set({ maxAttempts: 1 })
      .where(eq(jobs.dedupeKey, `${PROCESS_VIDEO_JOB}:${video._id}`));
    return { id: video._id, streamVideoId: video.streamVideoId, answer: JSON.stringify(response.body) };
  }

  async function processUntilFailed(id: string) {
    const worker = startWorker(database.db, {
      handlers: { [PROCESS_VIDEO_JOB]: JOB_HANDLERS[PROCESS_VIDEO_JOB]! },
      pollMs: 20,
      baseBackoffMs: 1,
    });
    const deadline = Date.now() + 45_000;
    const state = async () => (await database.db.select().from(videos).where(eq(videos.id, id)))[0]!.processingState;
    try {
      while ((await state()) !== 'failed' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await worker.stop();
    }
  }

  const jobError = async (id: string) =>
    (
      await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `${PROCESS_VIDEO_JOB}:${id}`))
    )[0]?.lastError;

  /** Everything the uploader is answered about the video: the video itself and their list of uploads. */
  async function memberAnswers(streamVideoId: string) {
    const one = await call(getVideo, `/api/videos/${streamVideoId}`, { bearer: token, params: { streamVideoId } });
    const mine = await call(myVideos, '/api/videos/mine', { bearer: token });
    expect([one.status, mine.status]).toEqual([200, 200]);
    const listed = (mine.body.videos as { streamVideoId: string; processingError: string | null }[]).find(
      (video) => video.streamVideoId === streamVideoId,
    );
    expect((one.body.video as { processingError: string | null }).processingError).toBe(PROCESSING_FAILED_MESSAGE);
    expect(listed?.processingError).toBe(PROCESSING_FAILED_MESSAGE);
    return JSON.stringify([one.body, mine.body]);
  }

  const expectNoLeaks = (text: string) => {
    for (const leak of LEAKS) expect(text).not.toContain(leak);
  };

  it('an ffmpeg failure: the uploader reads a fixed message, the job keeps ffmpeg’s output', async () => {
    const { id, streamVideoId, answer } = await uploadFile(indexOnly, 'no frames');
    await processUntilFailed(id);
    expect(await jobError(id)).toMatch(/ffmpeg \(thumbnail\) failed: /);
    expectNoLeaks(answer);
    expectNoLeaks(await memberAnswers(streamVideoId));
    // Admins see what went wrong in the moderation queue, beside the same fixed sentence.
    const adminToken = await verifiedMemberToken(database.db, 'moderator');
    await promoteToAdmin(database.db, await userId(database.db, 'moderator'));
    const queue = await call(moderationQueue, '/api/admin/videos?status=pending', { bearer: adminToken });
    const listed = (
      queue.body.videos as { streamVideoId: string; processingError: string; processingDetail: string | null }[]
    ).find((video) => video.streamVideoId === streamVideoId);
    expect(listed?.processingError).toBe(PROCESSING_FAILED_MESSAGE);
    expect(listed?.processingDetail).toMatch(/ffmpeg \(thumbnail\) failed: /);
  });

  it('a file system failure: the uploader reads a fixed message, the job keeps the path', async () => {
    const { id, streamVideoId } = await uploadFile(clip, 'no work folder');
    // The work folder cannot be made: a file is in its place.
    const work = path.join(dataDir, 'work');
    rmSync(work, { recursive: true, force: true });
    writeFileSync(work, 'in the way');
    try {
      await processUntilFailed(id);
    } finally {
      rmSync(work, { force: true });
    }
    expect(await jobError(id)).toContain(path.join(dataDir, 'work', id));
    expectNoLeaks(await memberAnswers(streamVideoId));
  });

  it('a raw message stored before this rule is never shown either', async () => {
    const ownerId = await userId(database.db, 'uploader');
    const raw = `ffmpeg (web MP4) failed: [mov,mp4,m4a,3gp,3g2,mj2 @ 0x55d0] ${dataDir}/media/originals/x.mp4: Invalid data found when processing input`;
    const video = await insertVideo(database.db, ownerId, {
      processingState: 'failed',
      processingError: raw,
      moderationStatus: 'pending',
      publishedAt: null,
      webMp4Key: null,
      thumbnailKey: null,
    });
    expectNoLeaks(await memberAnswers(video.streamVideoId));
  });
});
