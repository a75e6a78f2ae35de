import 'server-only';

import { sql } from 'drizzle-orm';

import type { VideoListDto, WatchLaterStateDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { STREAM_VIDEO_ID_PATTERN } from '@/lib/validation/community';
import { WATCH_LATER_MAX } from '@/lib/validation/videos';

import { requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest, conflict } from '../errors';

import { VIDEO_NOT_FOUND } from './access';
import { decodeTimeIdCursor, timeIdPage } from '../cursor-time';

import { PUBLIC, VIDEO_COLUMNS, type PageRequest } from './catalog';
import { toVideoDto, type VideoRow } from './dto';

export const INVALID_VIDEO_ID_MESSAGE = 'The video id is not valid.';
export const WATCH_LATER_FULL_MESSAGE = `Your Watch later list is full (${WATCH_LATER_MAX.toLocaleString('en-US')} videos). Remove a video to save another.`;

/**
 * A member's Watch later list. Rows stay when a video stops being public
 * (hidden, rejected, its owner banned) and every read filters with the
 * PUBLIC condition, as liked videos do: the video leaves the list at once
 * and comes back if it is published again. A deleted video's rows go with it
 * (ON DELETE CASCADE).
 */

/** The video behind a public id, whatever its state: 400 for an id that cannot be one, 404 for none. */
export async function videoByStreamId(db: Database, streamVideoId: string): Promise<{ id: string; public: boolean }> {
  if (!STREAM_VIDEO_ID_PATTERN.test(streamVideoId)) throw badRequest(INVALID_VIDEO_ID_MESSAGE);
  const [row] = await queryRows<{ id: string; public: boolean }>(
    db,
    sql`SELECT v.id, (${PUBLIC}) AS public FROM videos v WHERE v.stream_video_id = ${streamVideoId}`,
  );
  if (!row) throw new ApiError(404, VIDEO_NOT_FOUND);
  return row;
}

/**
 * Saves a public video to the caller's list (saving again is harmless and
 * answers the same). One statement inserts only while the list has room, so
 * parallel saves cannot push it far past WATCH_LATER_MAX.
 */
export async function saveToWatchLater(actor: Actor, streamVideoId: string): Promise<WatchLaterStateDto> {
  const member = requireMember(actor).user;
  const db = await getDb();
  const video = await videoByStreamId(db, streamVideoId);
  if (!video.public) throw new ApiError(404, VIDEO_NOT_FOUND);
  const [row] = await queryRows<{ saved: boolean }>(
    db,
    sql`WITH added AS (
          INSERT INTO watch_later (user_id, video_id)
          SELECT ${member.id}, ${video.id}
          WHERE (SELECT count(*) FROM watch_later WHERE user_id = ${member.id}) < ${WATCH_LATER_MAX}
          ON CONFLICT (user_id, video_id) DO NOTHING
          RETURNING 1
        )
        SELECT EXISTS (SELECT 1 FROM added) OR EXISTS (SELECT 1 FROM watch_later WHERE user_id = ${member.id} AND video_id = ${video.id}) AS saved`,
  );
  if (!row?.saved) throw conflict(WATCH_LATER_FULL_MESSAGE);
  return { saved: true };
}

/**
 * Removes a video from the caller's list (only ever their own row; removing
 * what is not there is harmless). A video that is not public is a 404 unless
 * it is on the caller's list, so the answer tells nobody whether a hidden
 * video exists, while its saver can still clear it.
 */
export async function removeFromWatchLater(actor: Actor, streamVideoId: string): Promise<WatchLaterStateDto> {
  const member = requireMember(actor).user;
  const db = await getDb();
  const video = await videoByStreamId(db, streamVideoId);
  const removed = await queryRows<{ video_id: string }>(
    db,
    sql`DELETE FROM watch_later WHERE user_id = ${member.id} AND video_id = ${video.id} RETURNING video_id`,
  );
  if (!video.public && removed.length === 0) throw new ApiError(404, VIDEO_NOT_FOUND);
  return { saved: false };
}

/** The public ids of the public videos on the caller's list, newest save first (the cards' saved state, one request per page). */
export async function watchLaterIds(actor: Actor): Promise<{ streamVideoIds: string[] }> {
  const member = requireMember(actor).user;
  const db = await getDb();
  const rows = await queryRows<{ stream_video_id: string }>(
    db,
    sql`SELECT v.stream_video_id FROM watch_later w JOIN videos v ON v.id = w.video_id
        WHERE w.user_id = ${member.id} AND ${PUBLIC}
        ORDER BY w.created_at DESC, w.video_id DESC
        LIMIT ${WATCH_LATER_MAX}`,
  );
  return { streamVideoIds: rows.map((row) => row.stream_video_id) };
}

/**
 * The caller's saved videos that are public now, newest save first. Pages by
 * number or by the cursor of the last answer ((saved at, video id) of its
 * last card, to the microsecond), an index range scan on watch_later_user_idx.
 */
export async function listWatchLater(actor: Actor, request: PageRequest): Promise<VideoListDto> {
  const member = requireMember(actor).user;
  const db = await getDb();
  const page = request.page ?? 1;
  const after = request.cursor ? decodeTimeIdCursor(request.cursor) : null;
  const rows = await queryRows<VideoRow & { saved_at: string }>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}, to_char(w.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS saved_at
        FROM watch_later w
        JOIN videos v ON v.id = w.video_id
        JOIN users u ON u.id = v.owner_id
        WHERE w.user_id = ${member.id} AND ${PUBLIC}${after ? sql` AND (w.created_at, w.video_id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
        ORDER BY w.created_at DESC, w.video_id DESC
        LIMIT ${request.limit + 1} OFFSET ${after ? 0 : (page - 1) * request.limit}`,
  );
  const { shown, pagination } = timeIdPage(rows, request, (row) => row.saved_at);
  return {
    videos: shown.map(toVideoDto),
    pagination,
  };
}
