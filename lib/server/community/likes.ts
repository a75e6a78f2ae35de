import 'server-only';

import { sql } from 'drizzle-orm';

import type { LikeStateDto, VideoListDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import type { User } from '@/lib/db/schema';
import { STREAM_VIDEO_ID_PATTERN } from '@/lib/validation/community';

import { memberOf, requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest } from '../errors';
import { consume, tooOften } from '../rate-limit';
import { notify } from '../notifications';
import { VIDEO_NOT_FOUND } from '../videos/access';
import { PUBLIC, VIDEO_COLUMNS } from '../videos/catalog';
import { toVideoDto, type VideoRow } from '../videos/dto';

import { hasBlocked } from './blocks';
import { isExactCursorTime } from '../cursor-time';
import { logger } from '@/lib/server/log';

const log = logger('likes');

export const OWN_VIDEO_MESSAGE = 'You cannot like your own video.';
export const INVALID_VIDEO_ID_MESSAGE = 'The video id is not valid.';
export const INVALID_CURSOR_MESSAGE = 'The cursor is not valid. Start again from page 1.';
const LIKES_TOO_OFTEN = tooOften('liked or unliked videos');

type Member = Pick<User, 'id' | 'username'>;

interface LikeTarget {
  id: string;
  owner_id: string;
  title: string;
  stream_video_id: string;
  likes_count: number;
}

/** The public video behind a public id: 400 for an id that cannot be one, 404 for unknown or not public (the same to everyone). */
async function publicVideo(db: Database, streamVideoId: string): Promise<LikeTarget> {
  if (!STREAM_VIDEO_ID_PATTERN.test(streamVideoId)) throw badRequest(INVALID_VIDEO_ID_MESSAGE);
  const [row] = await queryRows<LikeTarget>(
    db,
    sql`SELECT v.id, v.owner_id, v.title, v.stream_video_id, v.likes_count FROM videos v WHERE v.stream_video_id = ${streamVideoId} AND ${PUBLIC}`,
  );
  if (!row) throw new ApiError(404, VIDEO_NOT_FOUND);
  return row;
}

async function currentCount(db: Database, videoId: string): Promise<number> {
  const [row] = await queryRows<{ likes_count: number }>(db, sql`SELECT likes_count FROM videos WHERE id = ${videoId}`);
  return Number(row?.likes_count ?? 0);
}

/**
 * Likes a public video (not your own). One statement inserts the row (the
 * primary key on (video_id, user_id) makes a second like a no-op, however
 * many arrive at once) and adds exactly the number of rows inserted to
 * likes_count, so the counter always equals the rows. Liking again is
 * harmless and answers the same. The owner is told once per member and
 * video, ever (the dedupe key survives unlike and like again), and not at
 * all by a member they have blocked.
 */
export async function like(actor: Actor, streamVideoId: string): Promise<LikeStateDto> {
  const member: Member = requireMember(actor).user;
  await consume('likesPerMember', member.id, LIKES_TOO_OFTEN);
  const db = await getDb();
  const video = await publicVideo(db, streamVideoId);
  if (video.owner_id === member.id) throw badRequest(OWN_VIDEO_MESSAGE);
  // The UPDATE runs only when a row went in, so repeated likes take no lock on the video row.
  const [changed] = await queryRows<{ likes_count: number }>(
    db,
    sql`WITH added AS (
          INSERT INTO video_likes (video_id, user_id) VALUES (${video.id}, ${member.id})
          ON CONFLICT (video_id, user_id) DO NOTHING
          RETURNING 1
        )
        UPDATE videos SET likes_count = likes_count + (SELECT count(*) FROM added)::int
        WHERE id = ${video.id} AND EXISTS (SELECT 1 FROM added)
        RETURNING likes_count`,
  );
  if (!changed) return { liked: true, likes: await currentCount(db, video.id) };
  await notifyOwner(db, member, video);
  return { liked: true, likes: Number(changed.likes_count) };
}

/** Removes the caller's like (only ever their own row); unliking what you have not liked is harmless. */
export async function unlike(actor: Actor, streamVideoId: string): Promise<LikeStateDto> {
  const member = requireMember(actor).user;
  await consume('likesPerMember', member.id, LIKES_TOO_OFTEN);
  const db = await getDb();
  const video = await publicVideo(db, streamVideoId);
  const [changed] = await queryRows<{ likes_count: number }>(
    db,
    sql`WITH removed AS (
          DELETE FROM video_likes WHERE video_id = ${video.id} AND user_id = ${member.id}
          RETURNING 1
        )
        UPDATE videos SET likes_count = likes_count - (SELECT count(*) FROM removed)::int
        WHERE id = ${video.id} AND EXISTS (SELECT 1 FROM removed)
        RETURNING likes_count`,
  );
  return { liked: false, likes: changed ? Number(changed.likes_count) : await currentCount(db, video.id) };
}

/** Whether the caller likes a public video, and its like count; visitors (and banned members) get liked: false. */
export async function likeState(actor: Actor, streamVideoId: string): Promise<LikeStateDto> {
  const member = memberOf(actor);
  const db = await getDb();
  const video = await publicVideo(db, streamVideoId);
  if (!member) return { liked: false, likes: Number(video.likes_count) };
  const [row] = await queryRows<{ liked: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM video_likes WHERE video_id = ${video.id} AND user_id = ${member.id}) AS liked`,
  );
  return { liked: Boolean(row?.liked), likes: Number(video.likes_count) };
}

/**
 * The like notification. Written after the like (its own statement, so the
 * video row is not locked while it is written); a failure here is logged
 * and does not undo the like.
 */
async function notifyOwner(db: Database, member: Member, video: LikeTarget): Promise<void> {
  try {
    if (await hasBlocked(db, video.owner_id, member.id)) return;
    await notify(db, {
      recipientId: video.owner_id,
      senderId: member.id,
      type: 'like',
      link: `/video/${video.stream_video_id}`,
      // The bell shows a stored message as it is, so it names the member itself.
      message: `${member.username} liked your video "${video.title}"`,
      dedupeKey: `like:${video.id}:${member.id}`,
    });
  } catch (error) {
    log.error({ err: error }, 'could not write the like notification');
  }
}

// ---- The member's liked videos ------------------------------------------------------------------

export interface LikedPageRequest {
  limit: number;
  page?: number;
  cursor?: string | null;
}

/** The like time as exact UTC text (microseconds), so a cursor compares equal to the stored value. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function encodeLikedCursor(likedAt: string, videoId: string): string {
  return Buffer.from(`${likedAt}|${videoId}`).toString('base64url');
}

function decodeLikedCursor(cursor: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || extra !== undefined || !isExactCursorTime(at) || !UUID.test(id)) throw badRequest(INVALID_CURSOR_MESSAGE);
  return { at, id };
}

/**
 * The member's liked videos that are public now, newest like first. Pages by
 * number (as GET /api/videos does) or by the cursor of the last answer: the
 * (liked at, video id) of its last card, which stays right while likes come
 * and go and keeps deep pages an index range scan.
 */
export async function listLikedVideos(actor: Actor, request: LikedPageRequest): Promise<VideoListDto> {
  const member = requireMember(actor).user;
  const db = await getDb();
  const page = request.page ?? 1;
  let after = sql``;
  let offset = (page - 1) * request.limit;
  if (request.cursor) {
    const { at, id } = decodeLikedCursor(request.cursor);
    after = sql` AND (mine.created_at, mine.video_id) < (${at}::timestamptz, ${id}::uuid)`;
    offset = 0;
  }
  const rows = await queryRows<VideoRow & { liked_at: string }>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}, to_char(mine.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS liked_at
        FROM video_likes mine
        JOIN videos v ON v.id = mine.video_id
        JOIN users u ON u.id = v.owner_id
        WHERE mine.user_id = ${member.id} AND ${PUBLIC}${after}
        ORDER BY mine.created_at DESC, mine.video_id DESC
        LIMIT ${request.limit + 1} OFFSET ${offset}`,
  );
  const hasMore = rows.length > request.limit;
  const shown = rows.slice(0, request.limit);
  const last = shown[shown.length - 1];
  return {
    videos: shown.map(toVideoDto),
    pagination: {
      page,
      limit: request.limit,
      hasMore,
      nextCursor: hasMore && last ? encodeLikedCursor(last.liked_at, last.id) : null,
    },
  };
}
