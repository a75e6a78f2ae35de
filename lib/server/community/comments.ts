import 'server-only';

import { eq, sql } from 'drizzle-orm';

import type { CommentDto, CommentPageDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { comments, notifications } from '@/lib/db/schema';
import { purgePublicPages } from '@/lib/events';
import { COMMENT_MESSAGES, COMMENTS_PAGE_SIZE, STREAM_VIDEO_ID_PATTERN, type CommentBodyInput } from '@/lib/validation/community';

import { memberOf, requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest, forbidden } from '../errors';
import { notify } from '../notifications';
import { consume } from '../rate-limit';
import { findVideoRow, isPublicRow } from '../videos/catalog';
import type { VideoRow } from '../videos/dto';

import { hasBlocked } from './blocks';

/**
 * Comments on videos: plain text (rendered escaped, links made by the
 * client's linkify), newest first with (created_at, id) cursors, only on
 * public videos. Authors edit their own; authors, the video's owner and
 * admins delete. A member the video's owner blocked cannot comment there.
 * Every change purges the video's cached page, whose HTML carries the first
 * page of comments.
 */

const VIDEO_NOT_FOUND = 'Video not found';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface CommentRow {
  id: string;
  body: string;
  created_at: Date | string;
  edited_at: Date | string | null;
  /** created_at to the microsecond, in UTC ISO form: cursors must not lose precision to JS dates. */
  cursor_at: string;
  author_id: string;
  author_username: string;
  author_photo_key: string | null;
}

const COMMENT_COLUMNS = sql`
  c.id, c.body, c.created_at, c.edited_at,
  to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
  u.id AS author_id, u.username AS author_username, u.profile_photo_key AS author_photo_key`;

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function toCommentDto(row: CommentRow): CommentDto {
  return {
    _id: row.id,
    body: row.body,
    createdAt: iso(row.created_at),
    editedAt: row.edited_at === null ? null : iso(row.edited_at),
    author: {
      _id: row.author_id,
      username: row.author_username,
      profilePhotoUrl: row.author_photo_key ? `/media/avatars/${row.author_photo_key}-64.webp` : null,
    },
  };
}

function encodeCursor(row: CommentRow): string {
  return Buffer.from(`${row.cursor_at}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !at || !id || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) || Number.isNaN(Date.parse(at)) || !UUID.test(id)) {
    throw badRequest(COMMENT_MESSAGES.badCursor);
  }
  return { at, id };
}

export interface CommentPageRequest {
  limit?: number;
  cursor?: string | null;
  /** The member asking: comments of members they blocked are left out. Null for visitors (and the cached page). */
  viewerId?: string | null;
}

/** One page of a video's comments by its internal id, newest first. Authors who are banned are hidden with their videos. */
export async function commentPage(videoId: string, request: CommentPageRequest = {}, database?: Database): Promise<CommentPageDto> {
  const db = database ?? (await getDb());
  const limit = request.limit ?? COMMENTS_PAGE_SIZE;
  const visible = request.viewerId
    ? sql`c.video_id = ${videoId} AND u.banned_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${request.viewerId} AND b.blocked_id = c.author_id)`
    : sql`c.video_id = ${videoId} AND u.banned_at IS NULL`;
  let where = visible;
  if (request.cursor) {
    const { at, id } = decodeCursor(request.cursor);
    where = sql`${visible} AND (c.created_at, c.id) < (${at}::timestamptz, ${id}::uuid)`;
  }
  // One extra row answers hasMore without a second query; comments_video_idx serves the order.
  const rows = await queryRows<CommentRow>(
    db,
    sql`SELECT ${COMMENT_COLUMNS}
        FROM comments c JOIN users u ON u.id = c.author_id
        WHERE ${where}
        ORDER BY c.created_at DESC, c.id DESC
        LIMIT ${limit + 1}`,
  );
  const [counted] = await queryRows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM comments c JOIN users u ON u.id = c.author_id WHERE ${visible}`);
  const hasMore = rows.length > limit;
  const shown = rows.slice(0, limit);
  return {
    comments: shown.map(toCommentDto),
    total: Number(counted?.total ?? 0),
    pagination: { limit, hasMore, nextCursor: hasMore ? encodeCursor(shown[shown.length - 1]!) : null },
  };
}

/** 400 for an id that cannot be a video's (as likes answer), 404 unless the video is public. */
async function publicVideo(streamVideoId: string) {
  if (!STREAM_VIDEO_ID_PATTERN.test(streamVideoId)) throw badRequest(COMMENT_MESSAGES.badVideoId);
  const row = await findVideoRow(streamVideoId);
  if (!row || !isPublicRow(row)) throw new ApiError(404, VIDEO_NOT_FOUND);
  return row;
}

/** GET /api/videos/{streamVideoId}/comments: a public video's comments for whoever asks; a member does not get those of members they blocked. */
export async function listComments(actor: Actor, streamVideoId: string, request: Pick<CommentPageRequest, 'limit' | 'cursor'>): Promise<CommentPageDto> {
  const video = await publicVideo(streamVideoId);
  return commentPage(video.id, { limit: request.limit, cursor: request.cursor, viewerId: memberOf(actor)?.id ?? null });
}

async function findComment(db: Database, commentId: string) {
  // An id that cannot be a comment's is bad input: a 400, never a database error.
  if (!UUID.test(commentId)) throw badRequest(COMMENT_MESSAGES.badId);
  const [row] = await queryRows<CommentRow & Pick<VideoRow, 'stream_video_id' | 'processing_state' | 'moderation_status'> & { video_id: string; video_owner_id: string; owner_banned: boolean }>(
    db,
    sql`SELECT ${COMMENT_COLUMNS}, v.id AS video_id, v.stream_video_id, v.owner_id AS video_owner_id,
               v.processing_state, v.moderation_status, v.owner_banned
        FROM comments c JOIN users u ON u.id = c.author_id JOIN videos v ON v.id = c.video_id
        WHERE c.id = ${commentId}`,
  );
  if (!row) throw new ApiError(404, COMMENT_MESSAGES.notFound);
  return row;
}

async function readComment(db: Database, commentId: string): Promise<CommentDto> {
  const [row] = await queryRows<CommentRow>(db, sql`SELECT ${COMMENT_COLUMNS} FROM comments c JOIN users u ON u.id = c.author_id WHERE c.id = ${commentId}`);
  return toCommentDto(row!);
}

const purgeVideoPage = (streamVideoId: string) => purgePublicPages(`/video/${streamVideoId}`);

/**
 * Posts a comment on a public video. Refused for members the video's owner
 * blocked; limited to 5 a minute and 60 a day per member (counted only for
 * comments that would otherwise be posted). The owner is notified unless
 * they wrote it themselves.
 */
export async function postComment(actor: Actor, streamVideoId: string, input: CommentBodyInput): Promise<CommentDto> {
  const authorId = requireMember(actor).user.id;
  const db = await getDb();
  const video = await publicVideo(streamVideoId);
  if (authorId !== video.owner_id && (await hasBlocked(db, video.owner_id, authorId))) throw forbidden(COMMENT_MESSAGES.blocked);
  await consume('commentPerMinute', authorId, COMMENT_MESSAGES.tooFast);
  await consume('commentPerDay', authorId, COMMENT_MESSAGES.dailyLimit);

  const id = await db.transaction(async (tx) => {
    const [inserted] = await tx.insert(comments).values({ videoId: video.id, authorId, body: input.body }).returning({ id: comments.id });
    if (authorId !== video.owner_id) {
      await notify(tx, {
        recipientId: video.owner_id,
        senderId: authorId,
        type: 'comment',
        link: `/video/${video.stream_video_id}#comment-${inserted!.id}`,
        dedupeKey: `comment:${inserted!.id}`,
      });
    }
    return inserted!.id;
  });
  purgeVideoPage(video.stream_video_id);
  return readComment(db, id);
}

/** Changes the text of the caller's own comment and marks it edited. An unchanged text is not an edit. */
export async function editComment(actor: Actor, commentId: string, input: CommentBodyInput): Promise<CommentDto> {
  const { user } = requireMember(actor);
  const db = await getDb();
  const found = await findComment(db, commentId);
  if (found.author_id !== user.id) throw forbidden(COMMENT_MESSAGES.editOthers);
  // A comment on a video nobody can see any more is not worth editing; its author may still delete it.
  if (!isPublicRow(found)) throw new ApiError(404, COMMENT_MESSAGES.notFound);
  if (user.id !== found.video_owner_id && (await hasBlocked(db, found.video_owner_id, user.id))) throw forbidden(COMMENT_MESSAGES.blocked);
  if (found.body === input.body) return toCommentDto(found);
  await db.update(comments).set({ body: input.body, editedAt: sql`now()` }).where(eq(comments.id, commentId));
  purgeVideoPage(found.stream_video_id);
  return readComment(db, commentId);
}

/** Deletes a comment and the notification it caused: its author, the video's owner or an admin may. */
export async function deleteComment(actor: Actor, commentId: string): Promise<void> {
  const { user } = requireMember(actor);
  const db = await getDb();
  const found = await findComment(db, commentId);
  const allowed = found.author_id === user.id || found.video_owner_id === user.id || user.isAdmin;
  if (!allowed) throw forbidden(COMMENT_MESSAGES.deleteOthers);
  await db.transaction(async (tx) => {
    await tx.delete(comments).where(eq(comments.id, commentId));
    // The owner's "commented on your video" would point at nothing (and may be the abuse that was removed).
    await tx.delete(notifications).where(eq(notifications.dedupeKey, `comment:${commentId}`));
  });
  purgeVideoPage(found.stream_video_id);
}
