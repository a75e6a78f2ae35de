import 'server-only';

import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb } from '@/lib/db';
import { videos, type Job } from '@/lib/db/schema';

import type { JobHandler } from '../jobs/worker';
import { probeVideo } from '../media/probe';
import { makeThumbnail, makeWebMp4 } from '../media/web-mp4';

import { originalsDir, PROCESS_VIDEO_JOB } from './upload';

export function videoDir(videoId: string): string {
  return path.join(getConfig().dataDir, 'media', 'videos', videoId);
}

/**
 * The process-video job: probe again, write the web MP4 and the thumbnail,
 * then mark the video ready. Idempotent: outputs are renamed into place, so
 * a rerun after a crash simply redoes them. (The HLS ladder joins this job
 * in the rest of the videos issue.)
 */
export const processVideo: JobHandler = async (job: Job) => {
  const videoId = String(job.payload.videoId);
  const db = await getDb();
  const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
  if (!video) return; // deleted meanwhile: nothing to do
  await db.update(videos).set({ processingState: 'processing', processingError: null, updatedAt: sql`now()` }).where(eq(videos.id, videoId));
  try {
    const source = path.join(originalsDir(), video.sourceKey);
    const probe = await probeVideo(source);
    await makeWebMp4(source, path.join(videoDir(videoId), 'web.mp4'), probe);
    await makeThumbnail(source, path.join(videoDir(videoId), 'thumbnail.jpg'), probe.durationSeconds);
    await db
      .update(videos)
      .set({
        processingState: 'ready',
        thumbnailKey: `${videoId}/thumbnail.jpg`,
        durationSeconds: probe.durationSeconds,
        width: probe.width,
        height: probe.height,
        updatedAt: sql`now()`,
      })
      .where(eq(videos.id, videoId));
  } catch (error) {
    // Shown to the uploader and admins; the job retries with backoff and marks the video failed when it gives up.
    const reason = error instanceof Error ? error.message : String(error);
    const final = job.attempts >= job.maxAttempts;
    await db
      .update(videos)
      .set({ processingState: final ? 'failed' : 'queued', processingError: reason.slice(0, 1000), updatedAt: sql`now()` })
      .where(eq(videos.id, videoId));
    throw error;
  }
};

export const JOB_HANDLERS: Record<string, JobHandler> = {
  [PROCESS_VIDEO_JOB]: processVideo,
};
