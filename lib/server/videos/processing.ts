import 'server-only';

import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb } from '@/lib/db';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import { videos, type Job } from '@/lib/db/schema';
import { PREVIEW_FILES } from '@/lib/media/previews';

import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { logger } from '../log';
import { HLS_MASTER, packageHls } from '../media/hls';
import { ADAPTIVE_STREAMING_FAILED_MESSAGE, PROCESSING_FAILED_MESSAGE } from '../media/messages';
import { NotAVideoError, probeVideo } from '../media/probe';
import { makeThumbnailVariants } from '../media/thumbnail-variants';
import { makeThumbnail, makeWebMp4 } from '../media/web-mp4';
import { contentTypeFor, getMediaStorage, mediaKeys } from '../storage';

import { PROCESS_VIDEO_JOB } from './upload';

const log = logger('processing');

/** Packages the adaptive HLS ladder after the video is already playable from its web MP4. */
export const PACKAGE_HLS_JOB = 'package-hls';

/** Scratch space for one video's outputs before they go to media storage; removed after each attempt. */
export function workDir(videoId: string): string {
  return path.join(getConfig().dataDir, 'work', videoId);
}

/** Every file under dir, as paths relative to it (forward slashes, so they double as storage key suffixes). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * What the uploader is told when processing fails: a refused file's own
 * fixed text, else a generic one. The error itself (ffmpeg's output, file
 * system messages, server paths) goes to the job's last_error for admins.
 */
function uploaderMessageFor(error: unknown): string {
  return error instanceof NotAVideoError ? error.message : PROCESSING_FAILED_MESSAGE;
}

/**
 * The process-video job: probe again, write the web MP4 and the thumbnail
 * into a work folder, move them into media storage, then mark the video
 * ready. The web MP4 goes first so the video is playable as soon as
 * possible. Idempotent: outputs are written whole and put in place, so a
 * rerun after a crash simply redoes them. Marking the video ready and
 * enqueueing the package-hls job happen in one transaction, so a crash
 * between them cannot leave a ready video that never gets its ladder.
 * ffmpeg stops when the worker loses the job's lease (context.signal).
 */
export const processVideo: JobHandler = async (job: Job, { signal }) => {
  const videoId = String(job.payload.videoId);
  const db = await getDb();
  const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
  if (!video) return; // deleted meanwhile: nothing to do
  await db
    .update(videos)
    .set({ processingState: 'processing', processingError: null, updatedAt: sql`now()` })
    .where(eq(videos.id, videoId));
  const storage = getMediaStorage();
  const work = workDir(videoId);
  const original = await storage.openLocal(mediaKeys.original(video.sourceKey));
  try {
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    const probe = await probeVideo(original.path, { signal });
    await makeWebMp4(original.path, path.join(work, 'web.mp4'), probe, { signal });
    await makeThumbnail(original.path, path.join(work, 'thumbnail.jpg'), probe, { signal });
    const thumbnailVersion = await makeThumbnailVariants(path.join(work, 'thumbnail.jpg'));
    signal.throwIfAborted();
    for (const file of await filesUnder(work)) {
      const key = `${mediaKeys.videoPrefix(videoId)}/${file}`;
      await storage.putFile(key, path.join(work, file), contentTypeFor(key));
    }
    const stillThere = await db.transaction(async (tx) => {
      const marked = await tx
        .update(videos)
        .set({
          processingState: 'ready',
          thumbnailKey: mediaKeys.thumbnail(videoId),
          thumbnailVersion,
          webMp4Key: mediaKeys.webMp4(videoId),
          durationSeconds: probe.durationSeconds,
          width: probe.width,
          height: probe.height,
          updatedAt: sql`now()`,
        })
        .where(eq(videos.id, videoId))
        .returning({ id: videos.id });
      if (marked.length === 0) return false;
      await enqueue(tx, PACKAGE_HLS_JOB, { videoId }, { dedupeKey: `${PACKAGE_HLS_JOB}:${videoId}` });
      return true;
    });
    // Deleted while we processed (its purge job may already have run): take back what we just stored.
    if (!stillThere) {
      await storage.deletePrefix(mediaKeys.videoPrefix(videoId));
      return;
    }
    wakeWorkers();
    // If it was approved before it was ready, it has just become public.
    purgePublicPages();
  } catch (error) {
    // Lease lost: the worker that holds the job now decides the video's state.
    if (signal.aborted) throw error;
    // The job retries with backoff and marks the video failed when it gives up.
    const final = job.attempts >= job.maxAttempts;
    await db
      .update(videos)
      .set({ processingState: final ? 'failed' : 'queued', processingError: uploaderMessageFor(error), updatedAt: sql`now()` })
      .where(eq(videos.id, videoId));
    throw error;
  } finally {
    await original.release();
    await rm(work, { recursive: true, force: true });
  }
};

/** Puts a previews folder's files (lib/media/previews.ts) beside the video's other media; the row's version is set after. */
export async function putPreviews(videoId: string, dir: string): Promise<void> {
  const storage = getMediaStorage();
  for (const file of PREVIEW_FILES) {
    const key = mediaKeys.preview(videoId, file);
    await storage.putFile(key, path.join(dir, file), contentTypeFor(key));
  }
}

/** Segments first, then each rendition's playlist, the master last: a reader never sees a playlist naming missing files. */
function hlsPutOrder(file: string): number {
  if (file === HLS_MASTER) return 2;
  return file.endsWith('.m3u8') ? 1 : 0;
}

/**
 * The package-hls job: the adaptive ladder (240p/360p/720p/1080p, never above
 * the source; lib/server/media/hls.ts) from the original, put into media
 * storage under `videos/{id}/hls/`, master playlist last, then
 * hlsMasterKey and hlsHeights are set. The video stays playable from its
 * web MP4 all along: a failure is retried with backoff, and after the
 * last attempt processingError says so while processingState stays
 * 'ready'. Idempotent: a rerun packages again and overwrites the same
 * keys. Its work folder is its own, so it never meets process-video's.
 * ffmpeg stops when the worker loses the job's lease (context.signal).
 */
export const packageHlsVideo: JobHandler = async (job: Job, { signal }) => {
  const videoId = String(job.payload.videoId);
  const db = await getDb();
  const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
  if (!video) return; // deleted meanwhile: nothing to do
  const storage = getMediaStorage();
  const work = `${workDir(videoId)}-hls`;
  let original: { path: string; release: () => Promise<void> } | null = null;
  try {
    original = await storage.openLocal(mediaKeys.original(video.sourceKey));
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    const probe = await probeVideo(original.path, { signal });
    const out = path.join(work, 'hls');
    const previewsDir = path.join(work, 'previews');
    const ladder = await packageHls(original.path, out, probe, { signal, previewsDir });
    const files = (await filesUnder(out)).sort((a, b) => hlsPutOrder(a) - hlsPutOrder(b) || a.localeCompare(b));
    for (const file of files) {
      signal.throwIfAborted();
      const key = mediaKeys.hls(videoId, file);
      await storage.putFile(key, path.join(out, file), contentTypeFor(key));
    }
    if (ladder.previewsVersion) await putPreviews(videoId, previewsDir);
    else log.warn({ videoId }, 'no storyboard or preview clip made with the ladder; the video plays without them');
    const updated = await db
      .update(videos)
      .set({
        hlsMasterKey: mediaKeys.hls(videoId, HLS_MASTER),
        hlsHeights: ladder.heights,
        ...(ladder.previewsVersion ? { previewsVersion: ladder.previewsVersion } : {}),
        processingError: null,
        updatedAt: sql`now()`,
      })
      .where(eq(videos.id, videoId))
      .returning({ id: videos.id });
    // Deleted while we packaged: take back what we just stored.
    if (updated.length === 0) await storage.deletePrefix(mediaKeys.videoPrefix(videoId));
    // Cards and the player now have their previews.
    else if (ladder.previewsVersion) purgePublicPages();
  } catch (error) {
    if (job.attempts >= job.maxAttempts && !signal.aborted) {
      // The ladder is an upgrade: the video stays 'ready' on its web MP4. The reason itself is in the job's last_error.
      await db
        .update(videos)
        .set({ processingError: ADAPTIVE_STREAMING_FAILED_MESSAGE, updatedAt: sql`now()` })
        .where(eq(videos.id, videoId));
    }
    throw error;
  } finally {
    await original?.release();
    await rm(work, { recursive: true, force: true });
  }
};

export const JOB_HANDLERS: Record<string, JobHandler> = {
  [PROCESS_VIDEO_JOB]: processVideo,
  [PACKAGE_HLS_JOB]: packageHlsVideo,
};
