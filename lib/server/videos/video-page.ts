import 'server-only';

import { sql } from 'drizzle-orm';
import { connection } from 'next/server';
import { cache } from 'react';

import { getDb, queryRows } from '@/lib/db';

import type { CaptionTrackDto, CommentPageDto, VideoDto } from '@/lib/api-types';

import { commentPage } from '../community/comments';

import { captionTracks } from './captions';
import { findVideoRow, isPublicRow, listCategoryVideos } from './catalog';
import { playbackOf, toVideoDto } from './dto';
import { logger } from '@/lib/server/log';

const log = logger('pages');

export interface VideoPageData {
  video: VideoDto;
  playback: { mp4Url: string | null; hlsUrl: string | null };
  /** The player's caption tracks (decision 051). */
  captions: CaptionTrackDto[];
  /** The first page of comments as a visitor sees it (the page is the same for everyone); null if it could not be read. */
  comments: CommentPageDto | null;
}

/**
 * A public video for its page, or null (unknown, unpublished and hidden
 * videos are all 404s to the page, which is cached for everyone; owners
 * preview their own through the API instead). Memoised per request, so
 * metadata and page share one query.
 */
export const loadVideoPage = cache(async (streamVideoId: string): Promise<VideoPageData | null> => {
  await connection();
  const row = await findVideoRow(streamVideoId);
  if (!row || !isPublicRow(row)) return null;
  const [captions, comments] = await Promise.all([captionTracks(row.id, row.stream_video_id), firstComments(row.id)]);
  return { video: toVideoDto(row), playback: playbackOf(row) ?? { mp4Url: null, hlsUrl: null }, captions, comments };
});

/**
 * Whether a video that is not public was removed on purpose, so its page answers 410 Gone (crawlers drop those
 * sooner than a 404; decision 057): deleted by its owner or an admin (the row is gone, the audit log keeps the
 * deletion), removed by moderators after it was published, or under a copyright takedown that was not withdrawn
 * or restored. Never published, held for review or its owner banned: a 404, it may still come (back).
 * Asked only when the page found no public video. The videos of a deleted account leave no record: a 404.
 */
export async function isVideoGone(streamVideoId: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(streamVideoId)) return false;
  const db = await getDb();
  const [row] = await queryRows<{ gone: boolean }>(
    db,
    sql`SELECT CASE
          WHEN v.id IS NULL THEN EXISTS (
            SELECT 1 FROM admin_audit_log a
            WHERE a.target_type = 'video' AND a.target_id = ${streamVideoId} AND a.action = 'video.delete')
          ELSE (v.moderation_status = 'rejected' AND v.published_at IS NOT NULL) OR EXISTS (
            SELECT 1 FROM copyright_takedowns t WHERE t.video_id = v.id AND t.status NOT IN ('restored', 'withdrawn'))
        END AS gone
        FROM (SELECT 1) AS one LEFT JOIN videos v ON v.stream_video_id = ${streamVideoId}`,
  );
  return row?.gone === true;
}

/** A failure to read comments must not take the video page down: the client asks the API instead. */
async function firstComments(videoId: string): Promise<CommentPageDto | null> {
  try {
    return await commentPage(videoId);
  } catch (error) {
    log.error({ err: error }, 'could not load comments');
    return null;
  }
}

/** More from the same category, for the side column. */
export async function loadMoreLikeThis(video: VideoDto): Promise<VideoDto[]> {
  try {
    const { videos } = await listCategoryVideos(video.category, { limit: 9, page: 1 });
    return videos.filter((other) => other._id !== video._id).slice(0, 8);
  } catch (error) {
    log.error({ err: error }, 'could not load related videos');
    return [];
  }
}
