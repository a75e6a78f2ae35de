import { randomBytes } from 'node:crypto';

import { eq } from 'drizzle-orm';

import type { Database } from '@/lib/db';
import { users, videoPerformers, videos, type Video } from '@/lib/db/schema';

/** The member's id by username. */
export async function userId(db: Database, username: string): Promise<string> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error(`no member ${username}`);
  return row.id;
}

/**
 * A video row inserted directly, public (ready and approved) unless told
 * otherwise: list, search and moderation tests need many videos in given
 * states without running ffmpeg for each. The processing tests cover the pipeline.
 * It comes with performer records (the uploader is the only performer), so
 * the approval gate lets it through; pass `performersDeclaredAt: null` for
 * a video whose records are missing.
 */
export async function insertVideo(
  db: Database,
  ownerId: string,
  fields: Partial<typeof videos.$inferInsert> = {},
): Promise<Video> {
  const id = fields.id ?? crypto.randomUUID();
  const [row] = await db
    .insert(videos)
    .values({
      id,
      streamVideoId: randomBytes(9).toString('base64url'),
      ownerId,
      title: 'A video',
      category: 'Sissy',
      sourceKey: `${id}.mp4`,
      sourceBytes: 1000,
      processingState: 'ready',
      moderationStatus: 'approved',
      publishedAt: new Date(),
      thumbnailKey: `videos/${id}/thumbnail.jpg`,
      webMp4Key: `videos/${id}/web.mp4`,
      durationSeconds: 10,
      width: 640,
      height: 360,
      recordedOn: '2026-01-01',
      performersDeclaredAt: new Date(),
      ...fields,
    })
    .returning();
  if (row!.performersDeclaredAt) await declareUploaderOnly(db, row!);
  return row!;
}

/** Performer records saying the uploader is the only one in the video (what "Only me" saves), straight into the tables. */
export async function declareUploaderOnly(db: Database, video: Video, recordedOn = '2026-01-01'): Promise<void> {
  await db.insert(videoPerformers).values({
    videoId: video.id,
    streamVideoId: video.streamVideoId,
    ownerId: video.ownerId,
    videoTitle: video.title,
    recordedOn,
    position: 0,
    isUploader: true,
    consentType: 'uploader',
  });
  await db.update(videos).set({ recordedOn, performersDeclaredAt: new Date() }).where(eq(videos.id, video.id));
}
