import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import sharp from 'sharp';

import { POST as upload } from '@/app/api/videos/upload/route';
import { installDatabase } from '@/lib/db';
import { jobs, videos } from '@/lib/db/schema';
import { THUMBNAIL_WIDTHS } from '@/lib/media/thumbnails';
import { claim } from '@/lib/server/jobs/queue';
import { startWorker } from '@/lib/server/jobs/worker';
import { ADAPTIVE_STREAMING_FAILED_MESSAGE } from '@/lib/server/media/messages';
import { probeVideo } from '@/lib/server/media/probe';
import { JOB_HANDLERS, PACKAGE_HLS_JOB } from '@/lib/server/videos/processing';
import { PROCESS_VIDEO_JOB } from '@/lib/server/videos/upload';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { verifiedMemberToken } from '../helpers/members';
import { mediaFixtures } from '../helpers/media';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-processing-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;

const media = mediaFixtures();
const h264 = media.h264Clip(3);
const mpeg4 = media.mpeg4Avi();
const hd720 = media.sizedClip({ seconds: 3, width: 1280, height: 720 });
const silent = media.sizedClip({ seconds: 2, width: 640, height: 360, audio: false });
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

  async function runJobsUntil(done: () => Promise<boolean>, handlers = JOB_HANDLERS) {
    const worker = startWorker(database.db, { handlers, pollMs: 20, baseBackoffMs: 1 });
    const deadline = Date.now() + 45_000;
    try {
      while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await worker.stop();
    }
  }

  const videoDir = (id: string) => path.join(dataDir, 'media', 'videos', id);
  const videoRow = async (id: string) => (await database.db.select().from(videos).where(eq(videos.id, id)))[0]!;

  it('remuxes a browser-ready H.264 upload with its index first and makes a thumbnail', async () => {
    expect(indexFirst(h264)).toBe(false);
    const id = await uploadFile(h264, 'remux me');
    await runJobsUntil(async () => (await videoRow(id)).processingState === 'ready');
    const row = await videoRow(id);
    expect(row).toMatchObject({
      processingState: 'ready',
      processingError: null,
      thumbnailKey: `videos/${id}/thumbnail.jpg`,
      width: 320,
      height: 240,
    });
    const web = path.join(videoDir(id), 'web.mp4');
    expect(indexFirst(web)).toBe(true);
    expect(await probeVideo(web)).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac' });
    const jpeg = readFileSync(path.join(videoDir(id), 'thumbnail.jpg'));
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // The WebP widths of the cards, named by the JPEG's hash.
    expect(row.thumbnailVersion).toBe(createHash('sha256').update(jpeg).digest('hex').slice(0, 16));
    for (const width of THUMBNAIL_WIDTHS) {
      expect(await sharp(path.join(videoDir(id), `thumbnail-${width}.webp`)).metadata()).toMatchObject({ format: 'webp', width });
    }
  });

  it('transcodes what browsers cannot play to H.264', async () => {
    const id = await uploadFile(mpeg4, 'transcode me');
    await runJobsUntil(async () => (await videoRow(id)).processingState === 'ready');
    expect(await probeVideo(path.join(videoDir(id), 'web.mp4'))).toMatchObject({
      videoCodec: 'h264',
      formatName: expect.stringContaining('mp4'),
    });
  });

  it('resumes a video whose worker died mid-processing once the lease runs out, so none stays stuck', async () => {
    const id = await uploadFile(h264, 'worker dies');
    // A worker claims the job, marks the video processing, then its process is killed (it never answers).
    const job = await claim(database.db, 'dead-worker', [PROCESS_VIDEO_JOB], 300);
    expect(job?.payload).toEqual({ videoId: id });
    await database.db.update(videos).set({ processingState: 'processing' }).where(eq(videos.id, id));
    await new Promise((resolve) => setTimeout(resolve, 400));
    // After the restart another worker takes it over.
    await runJobsUntil(async () => (await videoRow(id)).processingState === 'ready', {
      [PROCESS_VIDEO_JOB]: JOB_HANDLERS[PROCESS_VIDEO_JOB]!,
    });
    expect(await videoRow(id)).toMatchObject({
      processingState: 'ready',
      processingError: null,
      webMp4Key: `videos/${id}/web.mp4`,
    });
    const [row] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `process-video:${id}`));
    expect(row).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('shows the reason of a failure, retries, then gives up and marks the video failed', async () => {
    const id = await uploadFile(h264, 'will break');
    // The stored original gets damaged after the upload was accepted.
    writeFileSync(path.join(dataDir, 'media', 'originals', (await videoRow(id)).sourceKey), 'damaged');
    await runJobsUntil(async () => (await videoRow(id)).processingState === 'failed');
    const row = await videoRow(id);
    expect(row.processingState).toBe('failed');
    expect(row.processingError).toMatch(/not a video we can read/);
    const [job] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `process-video:${id}`));
    expect(job).toMatchObject({ status: 'failed', attempts: 5 });
  });

  describe('HLS ladder (package-hls, after the video is playable)', () => {
    const hlsDir = (id: string) => path.join(videoDir(id), 'hls');
    const packaged = (id: string) => async () => (await videoRow(id)).hlsMasterKey !== null;
    const streamInfs = (id: string) =>
      readFileSync(path.join(hlsDir(id), 'master.m3u8'), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('#EXT-X-STREAM-INF:'));

    /** Every rendition folder holds its playlist and every segment the playlist names; returns the folder names. */
    const renditionsOnDisk = (id: string) => {
      const names = readdirSync(hlsDir(id), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort((a, b) => parseInt(a) - parseInt(b));
      for (const name of names) {
        const playlist = readFileSync(path.join(hlsDir(id), name, 'index.m3u8'), 'utf8');
        expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
        expect(playlist).toContain('#EXT-X-ENDLIST');
        const segments = playlist.split('\n').filter((line) => line.endsWith('.ts'));
        expect(segments.length).toBeGreaterThan(0);
        for (const segment of segments) {
          expect(segment).toMatch(/^seg_\d{5}\.ts$/);
          expect(existsSync(path.join(hlsDir(id), name, segment))).toBe(true);
        }
      }
      return names;
    };

    it('packages a 720p source as 240p, 360p and 720p (no upscaling), master playlist with resolution, codecs and bandwidth', async () => {
      const id = await uploadFile(hd720, 'ladder');
      await runJobsUntil(packaged(id));
      const row = await videoRow(id);
      expect(row).toMatchObject({
        processingState: 'ready',
        processingError: null,
        webMp4Key: `videos/${id}/web.mp4`,
        hlsMasterKey: `videos/${id}/hls/master.m3u8`,
        hlsHeights: [240, 360, 720],
      });
      expect(renditionsOnDisk(id)).toEqual(['240p', '360p', '720p']);
      const variants = streamInfs(id);
      expect(variants).toHaveLength(3);
      expect(variants[0]).toMatch(/RESOLUTION=426x240/);
      expect(variants[1]).toMatch(/RESOLUTION=640x360/);
      expect(variants[2]).toMatch(/RESOLUTION=1280x720/);
      for (const variant of variants) expect(variant).toMatch(/BANDWIDTH=\d+.*CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
      expect(await probeVideo(path.join(hlsDir(id), '720p', 'seg_00000.ts'))).toMatchObject({
        videoCodec: 'h264',
        audioCodec: 'aac',
        height: 720,
      });
      // The same decode made the seek bar's storyboard and the card's preview clip, named by their version.
      expect(row.previewsVersion).toMatch(/^[0-9a-f]{16}$/);
      const vtt = readFileSync(path.join(videoDir(id), 'storyboard.vtt'), 'utf8');
      expect(vtt.split('\n\n')).toEqual([
        'WEBVTT',
        `00:00:00.000 --> 00:00:02.000\nstoryboard-${row.previewsVersion}.jpg#xywh=0,0,160,90`,
        `00:00:02.000 --> 00:00:03.000\nstoryboard-${row.previewsVersion}.jpg#xywh=160,0,160,90\n`,
      ]);
      expect(await sharp(path.join(videoDir(id), 'storyboard.jpg')).metadata()).toMatchObject({
        format: 'jpeg',
        width: 320,
        height: 90,
      });
      expect(await probeVideo(path.join(videoDir(id), 'preview.mp4'))).toMatchObject({
        videoCodec: 'h264',
        audioCodec: null,
        width: 426,
        height: 240,
      });
      // Both jobs finished and their work folders are gone.
      const done = await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `${PACKAGE_HLS_JOB}:${id}`));
      expect(done).toMatchObject([{ status: 'done', attempts: 1 }]);
      expect(existsSync(path.join(dataDir, 'work', id))).toBe(false);
      expect(existsSync(path.join(dataDir, 'work', `${id}-hls`))).toBe(false);
    });

    it('packages a source without audio', async () => {
      const id = await uploadFile(silent, 'silent');
      await runJobsUntil(packaged(id));
      expect((await videoRow(id)).hlsHeights).toEqual([240, 360]);
      expect(renditionsOnDisk(id)).toEqual(['240p', '360p']);
      expect(streamInfs(id)[0]).not.toMatch(/mp4a/);
      expect(await probeVideo(path.join(hlsDir(id), '360p', 'seg_00000.ts'))).toMatchObject({
        videoCodec: 'h264',
        audioCodec: null,
      });
    });

    it('gives a 240 px source the one rendition at its height, and a rerun changes nothing', async () => {
      const id = await uploadFile(h264, 'tiny');
      await runJobsUntil(packaged(id));
      expect((await videoRow(id)).hlsHeights).toEqual([240]);
      expect(renditionsOnDisk(id)).toEqual(['240p']);
      expect(streamInfs(id)).toEqual([expect.stringMatching(/RESOLUTION=320x240/)]);

      const [job] = await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `${PACKAGE_HLS_JOB}:${id}`));
      const before = readFileSync(path.join(hlsDir(id), '240p', 'index.m3u8'), 'utf8');
      await JOB_HANDLERS[PACKAGE_HLS_JOB]!(job!, heldJobContext());
      expect(await videoRow(id)).toMatchObject({
        processingState: 'ready',
        hlsHeights: [240],
        hlsMasterKey: `videos/${id}/hls/master.m3u8`,
      });
      expect(readFileSync(path.join(hlsDir(id), '240p', 'index.m3u8'), 'utf8')).toBe(before);
      expect(renditionsOnDisk(id)).toEqual(['240p']);
      expect(existsSync(path.join(dataDir, 'work', `${id}-hls`))).toBe(false);
    });

    it('keeps the video playable from its MP4 when packaging fails for good, and records why', async () => {
      const id = await uploadFile(h264, 'no ladder');
      await runJobsUntil(async () => (await videoRow(id)).processingState === 'ready', {
        [PROCESS_VIDEO_JOB]: JOB_HANDLERS[PROCESS_VIDEO_JOB]!,
      });
      const hlsJob = async () =>
        (
          await database.db
            .select()
            .from(jobs)
            .where(eq(jobs.dedupeKey, `${PACKAGE_HLS_JOB}:${id}`))
        )[0]!;
      expect(await hlsJob()).toMatchObject({ status: 'queued' });
      writeFileSync(path.join(dataDir, 'media', 'originals', (await videoRow(id)).sourceKey), 'damaged');
      await runJobsUntil(async () => (await hlsJob()).status === 'failed');
      expect(await hlsJob()).toMatchObject({ status: 'failed', attempts: 5 });
      const row = await videoRow(id);
      expect(row).toMatchObject({
        processingState: 'ready',
        webMp4Key: `videos/${id}/web.mp4`,
        hlsMasterKey: null,
        hlsHeights: null,
      });
      // The uploader reads a fixed sentence; why it failed stays in the job, for admins.
      expect(row.processingError).toBe(ADAPTIVE_STREAMING_FAILED_MESSAGE);
      expect((await hlsJob()).lastError).toMatch(/not a video we can read.* ← ffprobe: /);
      expect(existsSync(path.join(videoDir(id), 'web.mp4'))).toBe(true);
      expect(existsSync(hlsDir(id))).toBe(false);
    });
  });
});
