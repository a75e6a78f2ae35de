import 'server-only';

import { eq, sql } from 'drizzle-orm';

import type {
  HistoryListDto,
  HistoryPausedDto,
  HistoryRemovedDto,
  ProgressDto,
  ProgressSavedDto,
  WatchProgressDto,
} from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { users } from '@/lib/db/schema';
import { STREAM_VIDEO_ID_PATTERN } from '@/lib/validation/community';
import { WATCH_HISTORY_MAX } from '@/lib/validation/history';
import { FINISHED_TAIL_SECONDS, FINISHED_TAIL_SHARE, MAX_POSITION_SECONDS, POSITION_SLACK_SECONDS } from '@/lib/watch-progress';

import { requireMember, type Actor } from '../auth/actor';
import { decodeTimeIdCursor, timeIdPage } from '../cursor-time';
import { ApiError, badRequest } from '../errors';
import { consume, tooOften } from '../rate-limit';

import { VIDEO_NOT_FOUND } from './access';
import { PUBLIC, VIDEO_COLUMNS, type PageRequest } from './catalog';
import { toVideoDto, type VideoRow } from './dto';
import { INVALID_VIDEO_ID_MESSAGE } from './watch-later';

export const POSITION_PAST_END_MESSAGE = 'The position is past the end of the video.';

/**
 * A member's watch history and resume points (decision 053). A progress write is one upsert (no read first), found by
 * the primary key (user, video); while the member has paused their history nothing is written. Reads filter with the
 * PUBLIC condition (or the member's own video), as Watch later does: a video hidden since leaves the list and comes
 * back if published again; a deleted video or account takes its rows along (ON DELETE CASCADE).
 */

/** Who may save progress on a video: anyone for a public one, its owner for their own (the preview on its page). */
const WATCHABLE = (memberId: string) => sql`((${PUBLIC}) OR v.owner_id = ${memberId})`;

function checkVideoId(streamVideoId: string): void {
  if (!STREAM_VIDEO_ID_PATTERN.test(streamVideoId)) throw badRequest(INVALID_VIDEO_ID_MESSAGE);
}

/**
 * Saves where the caller is in a video. One statement: it finds the video (public or the caller's own), refuses a
 * position past its end (with POSITION_SLACK_SECONDS of slack), decides `finished` with the rule of
 * lib/watch-progress.ts isFinished (the same constants; test/unit/watch-progress.test.ts and the integration test
 * hold the two together), and inserts or updates the row. Only when it inserted (a video new to the history) does a
 * second statement trim the history to its WATCH_HISTORY_MAX most recent videos. A write that changes nothing (no
 * such video, past the end) costs a second lookup to say why.
 */
export async function saveProgress(actor: Actor, streamVideoId: string, positionSeconds: number): Promise<ProgressSavedDto> {
  const member = requireMember(actor).user;
  checkVideoId(streamVideoId);
  if (member.historyPaused) return { saved: false, paused: true };
  await consume('progressWritesPerMember', member.id, tooOften('saved your place in videos'));
  const db = await getDb();
  const position = sql`${positionSeconds}::double precision`;
  const [row] = await queryRows<{ inserted: boolean }>(
    db,
    sql`INSERT INTO watch_history (user_id, video_id, position_seconds, finished, updated_at)
        SELECT ${member.id}, v.id, least(${position}, coalesce(v.duration_seconds, ${position})),
               coalesce(v.duration_seconds > 0
                 AND v.duration_seconds - ${position} <= greatest(${FINISHED_TAIL_SECONDS}::double precision, v.duration_seconds * ${FINISHED_TAIL_SHARE}), false),
               now()
        FROM videos v
        WHERE v.stream_video_id = ${streamVideoId} AND ${WATCHABLE(member.id)}
          AND ${position} <= coalesce(v.duration_seconds + ${POSITION_SLACK_SECONDS}, ${MAX_POSITION_SECONDS})
        ON CONFLICT (user_id, video_id) DO UPDATE
          SET position_seconds = excluded.position_seconds, finished = excluded.finished, updated_at = excluded.updated_at
        RETURNING (xmax = 0) AS inserted`,
  );
  if (!row) throw await whyNotSaved(db, member.id, streamVideoId);
  if (row.inserted) await trimHistory(db, member.id);
  return { saved: true, paused: false };
}

async function whyNotSaved(db: Database, memberId: string, streamVideoId: string): Promise<ApiError> {
  const [video] = await queryRows<{ id: string }>(
    db,
    sql`SELECT v.id FROM videos v WHERE v.stream_video_id = ${streamVideoId} AND ${WATCHABLE(memberId)}`,
  );
  return video ? badRequest(POSITION_PAST_END_MESSAGE) : new ApiError(404, VIDEO_NOT_FOUND);
}

/**
 * Keeps the member's WATCH_HISTORY_MAX most recent videos: the boundary is the row at that place in the member's
 * index range (watch_history_user_idx), and everything older goes. Nothing happens below the cap (no such row).
 */
async function trimHistory(db: Database, memberId: string): Promise<void> {
  await db.execute(
    sql`DELETE FROM watch_history
        WHERE user_id = ${memberId}
          AND (updated_at, video_id) < (
            SELECT updated_at, video_id FROM watch_history WHERE user_id = ${memberId}
            ORDER BY updated_at DESC, video_id DESC OFFSET ${WATCH_HISTORY_MAX - 1} LIMIT 1)`,
  );
}

interface ProgressRow {
  position_seconds: number;
  finished: boolean;
  watched_at: string;
}

const PROGRESS_COLUMNS = sql`h.position_seconds, h.finished,
  to_char(h.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS watched_at`;

const toProgressDto = (row: ProgressRow): WatchProgressDto => ({
  positionSeconds: Number(row.position_seconds),
  finished: row.finished,
  watchedAt: new Date(row.watched_at).toISOString(),
});

/** Where the caller stopped in a video (the player asks when it starts); null for a video not in their history or not watchable. */
export async function getProgress(actor: Actor, streamVideoId: string): Promise<ProgressDto> {
  const member = requireMember(actor).user;
  checkVideoId(streamVideoId);
  const db = await getDb();
  const [row] = await queryRows<ProgressRow>(
    db,
    sql`SELECT ${PROGRESS_COLUMNS} FROM watch_history h JOIN videos v ON v.id = h.video_id
        WHERE h.user_id = ${member.id} AND v.stream_video_id = ${streamVideoId} AND ${WATCHABLE(member.id)}`,
  );
  return { progress: row ? toProgressDto(row) : null, paused: member.historyPaused };
}

/**
 * The caller's history, most recently watched first, each video with where they stopped. Pages by number or by the
 * cursor of the last answer ((watched at, video id) of its last card, to the microsecond): an index range scan on
 * watch_history_user_idx. `unfinished` leaves out what was watched to the end (home's Continue watching).
 */
export async function listHistory(actor: Actor, request: PageRequest & { unfinished?: boolean }): Promise<HistoryListDto> {
  const member = requireMember(actor).user;
  const db = await getDb();
  const page = request.page ?? 1;
  const after = request.cursor ? decodeTimeIdCursor(request.cursor) : null;
  const rows = await queryRows<VideoRow & ProgressRow>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}, ${PROGRESS_COLUMNS}
        FROM watch_history h
        JOIN videos v ON v.id = h.video_id
        JOIN users u ON u.id = v.owner_id
        WHERE h.user_id = ${member.id} AND ${WATCHABLE(member.id)}${request.unfinished ? sql` AND NOT h.finished` : sql``}${
          after ? sql` AND (h.updated_at, h.video_id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``
        }
        ORDER BY h.updated_at DESC, h.video_id DESC
        LIMIT ${request.limit + 1} OFFSET ${after ? 0 : (page - 1) * request.limit}`,
  );
  const { shown, pagination } = timeIdPage(rows, request, (row) => row.watched_at);
  return {
    videos: shown.map((row) => ({ ...toVideoDto(row), progress: toProgressDto(row) })),
    pagination,
    paused: member.historyPaused,
  };
}

/** Removes one video from the caller's history (only ever their own row; removing what is not there is harmless). */
export async function removeFromHistory(actor: Actor, streamVideoId: string): Promise<HistoryRemovedDto> {
  const member = requireMember(actor).user;
  checkVideoId(streamVideoId);
  const db = await getDb();
  const removed = await queryRows<{ video_id: string }>(
    db,
    sql`DELETE FROM watch_history h USING videos v
        WHERE h.video_id = v.id AND h.user_id = ${member.id} AND v.stream_video_id = ${streamVideoId}
        RETURNING h.video_id`,
  );
  return { removed: removed.length };
}

/** Clears the caller's whole history. */
export async function clearHistory(actor: Actor): Promise<HistoryRemovedDto> {
  const member = requireMember(actor).user;
  const db = await getDb();
  const removed = await queryRows<{ video_id: string }>(
    db,
    sql`DELETE FROM watch_history WHERE user_id = ${member.id} RETURNING video_id`,
  );
  return { removed: removed.length };
}

/** Pauses or resumes the caller's history: while paused, progress writes are answered `{ saved: false, paused: true }`. */
export async function setHistoryPaused(actor: Actor, paused: boolean): Promise<HistoryPausedDto> {
  const member = requireMember(actor).user;
  const db = await getDb();
  await db
    .update(users)
    .set({ historyPaused: paused, updatedAt: sql`now()` })
    .where(eq(users.id, member.id));
  return { paused };
}
