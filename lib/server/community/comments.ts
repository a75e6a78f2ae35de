import 'server-only';

import { eq, sql } from 'drizzle-orm';

import type { CommentDto, CommentPageDto, CommentThreadDto, ReplyPageDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { comments } from '@/lib/db/schema';
import { purgePublicPages } from '@/lib/events';
import {
  COMMENT_MESSAGES,
  COMMENTS_PAGE_SIZE,
  REPLIES_PAGE_SIZE,
  STREAM_VIDEO_ID_PATTERN,
  type CommentBodyInput,
  type NewCommentInput,
} from '@/lib/validation/community';

import { isAdmin, memberOf, requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest, forbidden } from '../errors';
import { notify } from '../notifications';
import { consume, tooOften } from '../rate-limit';
import { findVideoRow, isPublicRow } from '../videos/catalog';
import type { VideoRow } from '../videos/dto';

import { hasBlocked } from './blocks';
import { isExactCursorTime } from '../cursor-time';

/**
 * Comments on videos: plain text (rendered escaped, links made by the
 * client's linkify), newest first with (created_at, id) cursors, only on
 * public videos. Authors edit their own; authors, the video's owner and
 * admins delete. A member the video's owner blocked cannot comment there.
 * Every change purges the video's cached page, whose HTML carries the first
 * page of comments.
 *
 * Replies: one level. A reply's parent_id is a top-level comment on the same
 * video (a reply to a reply joins its thread); the top-level list pages and
 * counts top-level comments only, each with its reply count computed when
 * read (comments_parent_idx), never stored, so deletions anywhere keep it
 * exact. Deleting a comment deletes its replies (ON DELETE CASCADE).
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
  parent_id: string | null;
  /** Only selected for top-level lists. */
  reply_count?: number | string | null;
}

const COMMENT_COLUMNS = sql`
  c.id, c.body, c.created_at, c.edited_at,
  to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
  u.id AS author_id, u.username AS author_username, u.profile_photo_key AS author_photo_key, c.parent_id`;

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
    parentId: row.parent_id,
    replyCount: Number(row.reply_count ?? 0),
  };
}

function encodeCursor(row: CommentRow): string {
  return Buffer.from(`${row.cursor_at}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !at || !id || !isExactCursorTime(at) || !UUID.test(id)) {
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

/** Comments the viewer may see: not by banned members, nor (for a member) by members they blocked. `c` is the comment, `u` its author. */
function visibleTo(viewerId: string | null | undefined, c = sql`c`, u = sql`u`) {
  return viewerId
    ? sql`${u}.banned_at IS NULL AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${viewerId} AND b.blocked_id = ${c}.author_id)`
    : sql`${u}.banned_at IS NULL`;
}

/** A top-level comment's replies the viewer may see, counted now (comments_parent_idx). */
const replyCount = (viewerId: string | null | undefined) =>
  sql`(SELECT count(*)::int FROM comments r JOIN users ru ON ru.id = r.author_id WHERE r.parent_id = c.id AND ${visibleTo(viewerId, sql`r`, sql`ru`)}) AS reply_count`;

/** One page of a video's top-level comments by its internal id, newest first, each with its reply count. Authors who are banned are hidden with their videos. */
export async function commentPage(
  videoId: string,
  request: CommentPageRequest = {},
  database?: Database,
): Promise<CommentPageDto> {
  const db = database ?? (await getDb());
  const limit = request.limit ?? COMMENTS_PAGE_SIZE;
  const visible = sql`c.video_id = ${videoId} AND c.parent_id IS NULL AND ${visibleTo(request.viewerId)}`;
  let where = visible;
  if (request.cursor) {
    const { at, id } = decodeCursor(request.cursor);
    where = sql`${visible} AND (c.created_at, c.id) < (${at}::timestamptz, ${id}::uuid)`;
  }
  // One extra row answers hasMore without a second query; comments_video_idx serves the order.
  const rows = await queryRows<CommentRow>(
    db,
    sql`SELECT ${COMMENT_COLUMNS}, ${replyCount(request.viewerId)}
        FROM comments c JOIN users u ON u.id = c.author_id
        WHERE ${where}
        ORDER BY c.created_at DESC, c.id DESC
        LIMIT ${limit + 1}`,
  );
  const [counted] = await queryRows<{ total: number }>(
    db,
    sql`SELECT count(*)::int AS total FROM comments c JOIN users u ON u.id = c.author_id WHERE ${visible}`,
  );
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
export async function listComments(
  actor: Actor,
  streamVideoId: string,
  request: Pick<CommentPageRequest, 'limit' | 'cursor'>,
): Promise<CommentPageDto> {
  const video = await publicVideo(streamVideoId);
  return commentPage(video.id, { limit: request.limit, cursor: request.cursor, viewerId: memberOf(actor)?.id ?? null });
}

async function findComment(db: Database, commentId: string) {
  // An id that cannot be a comment's is bad input: a 400, never a database error.
  if (!UUID.test(commentId)) throw badRequest(COMMENT_MESSAGES.badId);
  const [row] = await queryRows<
    CommentRow &
      Pick<VideoRow, 'stream_video_id' | 'processing_state' | 'moderation_status'> & {
        video_id: string;
        video_owner_id: string;
        owner_banned: boolean;
        author_banned: boolean;
      }
  >(
    db,
    sql`SELECT ${COMMENT_COLUMNS}, v.id AS video_id, v.stream_video_id, v.owner_id AS video_owner_id,
               v.processing_state, v.moderation_status, v.owner_banned, u.banned_at IS NOT NULL AS author_banned
        FROM comments c JOIN users u ON u.id = c.author_id JOIN videos v ON v.id = c.video_id
        WHERE c.id = ${commentId}`,
  );
  if (!row) throw new ApiError(404, COMMENT_MESSAGES.notFound);
  return row;
}

async function readComment(db: Database, commentId: string, viewerId: string): Promise<CommentDto> {
  const [row] = await queryRows<CommentRow>(
    db,
    sql`SELECT ${COMMENT_COLUMNS}, ${replyCount(viewerId)} FROM comments c JOIN users u ON u.id = c.author_id WHERE c.id = ${commentId}`,
  );
  return toCommentDto(row!);
}

const purgeVideoPage = (streamVideoId: string) => purgePublicPages(`/video/${streamVideoId}`);

interface ParentRow {
  id: string;
  video_id: string;
  author_id: string;
  author_username: string;
}

/**
 * The top-level comment a reply joins: the given comment, or its own parent
 * when it is a reply. Locked (FOR KEY SHARE) until the caller's transaction
 * ends, so it cannot be deleted between this check and the reply's insert.
 * 404 'This comment no longer exists.' when it is gone or its author banned;
 * 400 when it is on another video.
 */
async function lockParent(db: Database, parentId: string, videoId: string): Promise<ParentRow> {
  const [row] = await queryRows<ParentRow>(
    db,
    sql`SELECT t.id, t.video_id, t.author_id, tu.username AS author_username
        FROM comments c JOIN comments t ON t.id = coalesce(c.parent_id, c.id) JOIN users tu ON tu.id = t.author_id
        WHERE c.id = ${parentId} AND tu.banned_at IS NULL
        FOR KEY SHARE OF t`,
  );
  if (!row) throw new ApiError(404, COMMENT_MESSAGES.parentGone);
  if (row.video_id !== videoId) throw badRequest(COMMENT_MESSAGES.parentOtherVideo, { field: 'parentId' });
  return row;
}

/**
 * Posts a comment on a public video, or with `parentId` a reply. Refused for
 * members the video's owner blocked, and replies for members the parent's
 * author blocked; limited to 5 a minute and 60 a day per member (counted
 * only for comments that would otherwise be posted). A comment notifies the
 * video's owner, a reply the parent's author (once, never themselves).
 */
export async function postComment(actor: Actor, streamVideoId: string, input: NewCommentInput): Promise<CommentDto> {
  const authorId = requireMember(actor).user.id;
  const db = await getDb();
  const video = await publicVideo(streamVideoId);
  if (authorId !== video.owner_id && (await hasBlocked(db, video.owner_id, authorId))) throw forbidden(COMMENT_MESSAGES.blocked);
  if (input.parentId) {
    // Checked before the budget is spent: a reply that cannot be posted costs nothing.
    const parent = await lockParent(db, input.parentId, video.id);
    if (parent.author_id !== authorId && (await hasBlocked(db, parent.author_id, authorId)))
      throw forbidden(COMMENT_MESSAGES.replyBlocked);
  }
  await consume('commentPerMinute', authorId, COMMENT_MESSAGES.tooFast);
  await consume('commentPerDay', authorId, COMMENT_MESSAGES.dailyLimit);

  const id = await db.transaction(async (tx) => {
    const parent = input.parentId ? await lockParent(tx, input.parentId, video.id) : null;
    const [inserted] = await tx
      .insert(comments)
      .values({ videoId: video.id, authorId, body: input.body, parentId: parent?.id ?? null })
      .returning({ id: comments.id });
    const link = `/video/${video.stream_video_id}#comment-${inserted!.id}`;
    // The same key as a comment's, so deleting the reply takes its notification with it.
    const dedupeKey = `comment:${inserted!.id}`;
    if (parent) {
      if (parent.author_id !== authorId) {
        const message = `${requireMember(actor).user.username} replied to your comment`;
        await notify(tx, { recipientId: parent.author_id, senderId: authorId, type: 'comment', link, message, dedupeKey });
      }
    } else if (authorId !== video.owner_id) {
      await notify(tx, { recipientId: video.owner_id, senderId: authorId, type: 'comment', link, dedupeKey });
    }
    return inserted!.id;
  });
  purgeVideoPage(video.stream_video_id);
  return readComment(db, id, authorId);
}

/**
 * GET /api/comments/{id}/replies?page: a top-level comment's replies, oldest
 * first, REPLIES_PAGE_SIZE a page, for whoever may see the comment (a member
 * does not get replies of members they blocked). A reply has no replies.
 */
export async function listReplies(actor: Actor, commentId: string, page: number): Promise<ReplyPageDto> {
  const viewerId = memberOf(actor)?.id ?? null;
  const db = await getDb();
  const found = await findComment(db, commentId);
  if (!isPublicRow(found) || found.author_banned) throw new ApiError(404, COMMENT_MESSAGES.notFound);
  const limit = REPLIES_PAGE_SIZE;
  const visible = sql`c.parent_id = ${found.id} AND ${visibleTo(viewerId)}`;
  const rows = await queryRows<CommentRow>(
    db,
    sql`SELECT ${COMMENT_COLUMNS} FROM comments c JOIN users u ON u.id = c.author_id
        WHERE ${visible} ORDER BY c.created_at ASC, c.id ASC LIMIT ${limit + 1} OFFSET ${(page - 1) * limit}`,
  );
  const [counted] = await queryRows<{ total: number }>(
    db,
    sql`SELECT count(*)::int AS total FROM comments c JOIN users u ON u.id = c.author_id WHERE ${visible}`,
  );
  return {
    replies: rows.slice(0, limit).map(toCommentDto),
    total: Number(counted?.total ?? 0),
    pagination: { page, limit, hasMore: rows.length > limit },
  };
}

/**
 * GET /api/comments/{id}: one comment on a public video and, for a reply, its
 * parent, so a #comment-{id} link (a notification, the report queue) can
 * show it when it is not on the loaded page. 404 for what the caller may not
 * see (a banned author, a member they blocked).
 */
export async function getCommentThread(actor: Actor, commentId: string): Promise<CommentThreadDto> {
  const viewerId = memberOf(actor)?.id ?? null;
  const db = await getDb();
  const found = await findComment(db, commentId);
  const ids = found.parent_id ? [found.parent_id, found.id] : [found.id];
  const rows = await queryRows<CommentRow>(
    db,
    sql`SELECT ${COMMENT_COLUMNS}, ${replyCount(viewerId)} FROM comments c JOIN users u ON u.id = c.author_id
        WHERE c.id IN (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) AND ${visibleTo(viewerId)}`,
  );
  const comment = rows.find((row) => row.id === found.id);
  const parent = found.parent_id ? rows.find((row) => row.id === found.parent_id) : null;
  if (!isPublicRow(found) || !comment || parent === undefined) throw new ApiError(404, COMMENT_MESSAGES.notFound);
  return { comment: toCommentDto(comment), parent: parent ? toCommentDto(parent) : null };
}

/** Changes the text of the caller's own comment and marks it edited. An unchanged text is not an edit. */
export async function editComment(actor: Actor, commentId: string, input: CommentBodyInput): Promise<CommentDto> {
  const { user } = requireMember(actor);
  const db = await getDb();
  const found = await findComment(db, commentId);
  if (found.author_id !== user.id) throw forbidden(COMMENT_MESSAGES.editOthers);
  // A comment on a video nobody can see any more is not worth editing; its author may still delete it.
  if (!isPublicRow(found)) throw new ApiError(404, COMMENT_MESSAGES.notFound);
  if (user.id !== found.video_owner_id && (await hasBlocked(db, found.video_owner_id, user.id)))
    throw forbidden(COMMENT_MESSAGES.blocked);
  if (found.body === input.body) return readComment(db, commentId, user.id);
  await consume('commentEditsPerMember', user.id, tooOften('edited your comments'));
  await db
    .update(comments)
    .set({ body: input.body, editedAt: sql`now()` })
    .where(eq(comments.id, commentId));
  purgeVideoPage(found.stream_video_id);
  return readComment(db, commentId, user.id);
}

/**
 * Deletes a comment, its replies (ON DELETE CASCADE) and the notifications
 * they caused, which would point at nothing (and may be the abuse that was
 * removed). For the callers' own checks and transaction: the author's
 * delete below, an admin resolving a report. True if the comment was there.
 */
export async function removeComment(db: Database, commentId: string): Promise<boolean> {
  await db.execute(
    sql`DELETE FROM notifications WHERE dedupe_key IN (SELECT 'comment:' || id::text FROM comments WHERE id = ${commentId} OR parent_id = ${commentId})`,
  );
  const deleted = await db.delete(comments).where(eq(comments.id, commentId)).returning({ id: comments.id });
  return deleted.length > 0;
}

/** Deletes a comment, its replies and the notifications they caused: its author, the video's owner or an admin may. */
export async function deleteComment(actor: Actor, commentId: string): Promise<void> {
  const { user } = requireMember(actor);
  const db = await getDb();
  const found = await findComment(db, commentId);
  // isAdmin(actor): admin powers need a session that passed the second factor (decision 018).
  const allowed = found.author_id === user.id || found.video_owner_id === user.id || isAdmin(actor);
  if (!allowed) throw forbidden(COMMENT_MESSAGES.deleteOthers);
  await db.transaction((tx) => removeComment(tx, commentId));
  purgeVideoPage(found.stream_video_id);
}
