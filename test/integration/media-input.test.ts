import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { POST as upload } from '@/app/api/videos/upload/route';
import { installDatabase } from '@/lib/db';
import { jobs, videos } from '@/lib/db/schema';
import { enqueue } from '@/lib/server/jobs/queue';
import { startWorker } from '@/lib/server/jobs/worker';
import { packageHls } from '@/lib/server/media/hls';
import { NOT_A_VIDEO_MESSAGES } from '@/lib/server/media/messages';
import { NotAVideoError, probeVideo } from '@/lib/server/media/probe';
import { makeThumbnail, makeWebMp4 } from '@/lib/server/media/web-mp4';
import { resetLimiters } from '@/lib/server/rate-limit';
import { JOB_HANDLERS } from '@/lib/server/videos/processing';
import { PROCESS_VIDEO_JOB } from '@/lib/server/videos/upload';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { mediaFixtures } from '../helpers/media';
import { insertVideo, userId } from '../helpers/videos';

/**
 * Uploads are read only as self-contained containers. Playlists, manifests
 * and lists name other files, which ffmpeg would open on the server: an
 * attacker's HLS playlist naming another member's private original became
 * the attacker's own web.mp4. Each refused input here names a real video
 * that ffmpeg would otherwise read.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-media-input-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;

const media = mediaFixtures();
const clip = media.h264Clip();
const frames = media.pngFrames();
const playable: [string, string][] = [
  ['MP4', clip],
  ['WebM', media.webmClip()],
  ['MKV', media.mkvClip()],
  ['MPEG-TS', media.tsClip()],
  ['AVI', media.mpeg4Avi()],
  ['MPEG-PS', media.mpegPs()],
];
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const originalsDir = path.join(dataDir, 'media', 'originals');
const quarantineDir = path.join(dataDir, 'quarantine');

/** Every file under the media storage, relative: what a refused upload must leave unchanged. */
const storedFiles = () => {
  try {
    return readdirSync(path.join(dataDir, 'media'), { recursive: true, encoding: 'utf8' }).sort();
  } catch {
    return [];
  }
};
const quarantinedUploads = () => {
  try {
    return readdirSync(quarantineDir).filter((name) => name.endsWith('.upload'));
  } catch {
    return [];
  }
};

const hlsPlaylist = (target: string) =>
  `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:2.0,\n${target}\n#EXT-X-ENDLIST\n`;
const dashManifest = (target: string) => `<?xml version="1.0" encoding="utf-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
  <Period>
    <AdaptationSet mimeType="video/mp4">
      <Representation id="1" bandwidth="100000" width="320" height="240">
        <BaseURL>${target}</BaseURL>
      </Representation>
    </AdaptationSet>
  </Period>
</MPD>
`;
/** ffconcat's safe mode only takes names beside the list, so this one names a clip in the quarantine folder (as the demo seeder writes them there). */
const concatList = (name: string) => `ffconcat version 1.0\nfile ${name}\nduration 2\n`;

describe.each(ENGINES)('media input on %s', (engine) => {
  let database: TestDatabase;
  let victimToken: string;
  let attackerToken: string;
  let victimOriginal: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    victimToken = await verifiedMemberToken(database.db, `victim${engine}`);
    attackerToken = await verifiedMemberToken(database.db, `attacker${engine}`);
    // The victim's pending, private upload: its original sits in the data folder.
    const id = await uploaded(victimToken, new Blob([readFileSync(clip)]), 'private.mp4');
    const [row] = await database.db.select().from(videos).where(eq(videos.id, id));
    victimOriginal = path.join(originalsDir, row!.sourceKey);
    expect(readFileSync(victimOriginal)).toEqual(readFileSync(clip));
  });
  afterAll(() => database.destroy());

  function send(token: string, file: Blob, name: string) {
    const form = new FormData();
    form.append('title', `upload of ${name}`);
    form.append('category', 'Beta');
    form.append('video', file, name);
    return call(upload, '/api/videos/upload', { form, bearer: token });
  }

  /** Uploads a file that must be taken; returns the video's id. */
  async function uploaded(token: string, file: Blob, name: string): Promise<string> {
    const response = await send(token, file, name);
    expect(response).toMatchObject({ status: 201 });
    return (response.body.video as { _id: string })._id;
  }

  /** Runs process-video jobs (not the HLS ladder: not what these tests are about) until done() holds. */
  async function runJobsUntil(done: () => Promise<boolean>) {
    const worker = startWorker(database.db, {
      handlers: { [PROCESS_VIDEO_JOB]: JOB_HANDLERS[PROCESS_VIDEO_JOB]! },
      pollMs: 20,
      baseBackoffMs: 1,
    });
    const deadline = Date.now() + 45_000;
    try {
      while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await worker.stop();
    }
  }

  const videoRow = async (id: string) => (await database.db.select().from(videos).where(eq(videos.id, id)))[0]!;

  describe('refuses inputs that name other files, with the usual 415, and stores nothing', () => {
    it.each([
      ['an HLS playlist naming another member’s original', 'playlist.m3u8', () => hlsPlaylist(victimOriginal)],
      ['an HLS playlist disguised as an MP4', 'holiday.mp4', () => hlsPlaylist(victimOriginal)],
      ['a DASH manifest naming another member’s original', 'manifest.mpd', () => dashManifest(victimOriginal)],
      [
        'an ffconcat list naming a clip beside it',
        'list.mp4',
        () => {
          const beside = `demo-${crypto.randomUUID()}.mp4`;
          mkdirSync(quarantineDir, { recursive: true });
          copyFileSync(clip, path.join(quarantineDir, beside));
          return concatList(beside);
        },
      ],
    ])('%s', async (_label, name, content) => {
      const before = { rows: (await database.db.select().from(videos)).length, files: storedFiles() };
      const response = await send(attackerToken, new Blob([content()]), name);
      expect(response).toMatchObject({ status: 415, body: { message: NOT_A_VIDEO_MESSAGES.unreadable } });
      expect(await database.db.select().from(videos)).toHaveLength(before.rows);
      expect(storedFiles()).toEqual(before.files);
      expect(quarantinedUploads()).toEqual([]);
    });
  });

  it('refuses an image-sequence pattern naming files on the server (the probe any caller uses)', async () => {
    const pattern = path.join(frames, 'frame%03d.png');
    await expect(probeVideo(pattern)).rejects.toThrow(NotAVideoError);
    await expect(probeVideo(path.join(frames, 'frame001.png'))).rejects.toThrow(NOT_A_VIDEO_MESSAGES.unreadable);
  });

  it('never lets ffmpeg guess the format again: each step reads the input only as the container the probe found', async () => {
    const playlist = path.join(dataDir, 'sniff-me.m3u8');
    writeFileSync(playlist, hlsPlaylist(victimOriginal));
    // A probe of the real clip, handed over with a playlist (as if the file changed between probe and encode).
    const probe = await probeVideo(clip);
    const out = mkdtempSync(path.join(dataDir, 'out-'));
    await expect(makeWebMp4(playlist, path.join(out, 'web.mp4'), probe)).rejects.toThrow(/ffmpeg \(web MP4\) failed/);
    await expect(makeThumbnail(playlist, path.join(out, 'thumbnail.jpg'), probe)).rejects.toThrow(/ffmpeg \(thumbnail\) failed/);
    await expect(packageHls(playlist, path.join(out, 'hls'), probe)).rejects.toThrow(/ffmpeg \(HLS\) failed/);
    expect(readdirSync(out)).toEqual([]);
  });

  it('does not process an original stored before this check that is a playlist: the video fails and nothing is stored', async () => {
    // Written as an upload accepted before containers were checked would have left it.
    const ownerId = await userId(database.db, `attacker${engine}`);
    const video = await insertVideo(database.db, ownerId, {
      processingState: 'queued',
      moderationStatus: 'pending',
      publishedAt: null,
      thumbnailKey: null,
      webMp4Key: null,
      durationSeconds: null,
    });
    const sourceKey = `${video.id}.m3u8`;
    writeFileSync(path.join(originalsDir, sourceKey), hlsPlaylist(victimOriginal));
    await database.db.update(videos).set({ sourceKey }).where(eq(videos.id, video.id));
    await enqueue(
      database.db,
      PROCESS_VIDEO_JOB,
      { videoId: video.id },
      { dedupeKey: `${PROCESS_VIDEO_JOB}:${video.id}`, maxAttempts: 1 },
    );

    await runJobsUntil(async () => (await videoRow(video.id)).processingState === 'failed');
    expect(await videoRow(video.id)).toMatchObject({
      processingState: 'failed',
      processingError: NOT_A_VIDEO_MESSAGES.unreadable,
      webMp4Key: null,
    });
    expect(storedFiles().filter((file) => file.includes(video.id))).toEqual([path.join('originals', sourceKey)]);
    const [job] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `${PROCESS_VIDEO_JOB}:${video.id}`));
    // The detail stays in the job, for admins.
    expect(job!.lastError).toMatch(/^This file is not a video we can read.* ← ffprobe: .*not on whitelist/);
  });

  it.each(playable)('still takes and processes %s', async (_label, file) => {
    const id = await uploaded(attackerToken, new Blob([readFileSync(file)]), path.basename(file));
    await runJobsUntil(async () => ['ready', 'failed'].includes((await videoRow(id)).processingState));
    const [job] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `${PROCESS_VIDEO_JOB}:${id}`));
    // With the job's error, so a failure says why.
    expect({ ...(await videoRow(id)), jobError: job!.lastError }).toMatchObject({
      processingState: 'ready',
      processingError: null,
      webMp4Key: `videos/${id}/web.mp4`,
      jobError: null,
    });
    expect(await probeVideo(path.join(dataDir, 'media', 'videos', id, 'web.mp4'))).toMatchObject({
      demuxer: 'mov',
      videoCodec: 'h264',
      width: 320,
      height: 240,
    });
  });
});
