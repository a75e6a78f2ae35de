import 'server-only';

import { sql, type SQL } from 'drizzle-orm';

import type { NotificationDto, NotificationListDto } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';
import type { NotificationType } from '@/lib/db/schema';
import { NOTIFICATION_CURSOR_INVALID } from '@/lib/validation/community';

import { requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest } from '../errors';

import { DEFAULT_NOTIFICATION_TEXT } from './index';
import { isExactCursorTime } from '../cursor-time';

/**
 * The member's side of notifications (spec sections 3, 4 and 7): the list
 * behind the navbar bell, newest first, and marking them read. Every query
 * is scoped to the caller's own rows; somebody else's notification is "not
 * found", never "forbidden", so ids reveal nothing.
 */

/** Spec section 8: the text for a notification with no message whose type has no default of its own. */
export const GENERIC_NOTIFICATION_TEXT = 'You have a new notification.';
/** Spec section 8 writes "someone started following you": the sender's name, or this when the account is gone. */
export const UNKNOWN_SENDER = 'Someone';
export const NOTIFICATION_NOT_FOUND = 'Notification not found';

/** Types caused by a member: the displayed text is "<sender> <phrase>", e.g. "alex liked your video". */
const MEMBER_ACTIONS: ReadonlySet<string> = new Set<NotificationType>(['follow', 'like', 'comment']);
/** Types the site itself sends; the deciding admin stays anonymous to the uploader. */
const SITE_NOTICES: ReadonlySet<string> = new Set<NotificationType>(['video_approved', 'video_rejected', 'site_notice']);

/**
 * What the bell shows: the stored message when there is one, else the spec's
 * default for the type. For follows, likes and comments the default is a
 * phrase about the sender ("started following you"), so the sender's name
 * leads it: "alex started following you", or "Someone started following you"
 * when the sender's account no longer exists.
 */
export function notificationText(type: string, message: string | null, senderUsername: string | null): string {
  if (message?.trim()) return message;
  const phrase = (DEFAULT_NOTIFICATION_TEXT as Record<string, string | undefined>)[type];
  if (!phrase) return GENERIC_NOTIFICATION_TEXT;
  return MEMBER_ACTIONS.has(type) ? `${senderUsername ?? UNKNOWN_SENDER} ${phrase}` : phrase;
}

interface NotificationRow {
  id: string;
  type: string;
  link: string;
  message: string | null;
  read: boolean;
  created_at: Date | string;
  /** created_at to the microsecond, UTC, for the cursor (a JS Date keeps only milliseconds). */
  cursor_at: string;
  sender_id: string | null;
  sender_username: string | null;
}

function toDto(row: NotificationRow): NotificationDto {
  const showSender = row.sender_id !== null && row.sender_username !== null && !SITE_NOTICES.has(row.type);
  return {
    _id: row.id,
    sender: showSender ? { _id: row.sender_id!, username: row.sender_username! } : null,
    type: row.type as NotificationDto['type'],
    link: row.link || '#',
    message: notificationText(row.type, row.message, showSender ? row.sender_username : null),
    createdAt: (row.created_at instanceof Date ? row.created_at : new Date(row.created_at)).toISOString(),
    read: Boolean(row.read),
  };
}

const COLUMNS = sql`
  n.id, n.type, n.link, n.message, n.read_at IS NOT NULL AS read, n.created_at,
  to_char(n.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
  s.id AS sender_id, s.username AS sender_username`;

/** Notifications from a member the recipient has blocked are not shown (nor counted). */
const NOT_FROM_BLOCKED = sql`NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = n.recipient_id AND b.blocked_id = n.sender_id)`;

/** Cursors carry the last row's (created_at to the microsecond, id): pages stay stable while new notifications arrive. */
function encodeCursor(row: NotificationRow): string {
  return Buffer.from(`${row.cursor_at}|${row.id}`).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !at || !id || !isExactCursorTime(at) || !UUID.test(id))
    throw badRequest(NOTIFICATION_CURSOR_INVALID, { field: 'cursor' });
  return { at, id };
}

async function countUnread(userId: string): Promise<number> {
  const db = await getDb();
  // Served by the partial index notifications_unread_idx (recipient_id WHERE read_at IS NULL).
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`SELECT count(*)::int AS n FROM notifications n WHERE n.recipient_id = ${userId} AND n.read_at IS NULL AND ${NOT_FROM_BLOCKED}`,
  );
  return Number(row?.n ?? 0);
}

/**
 * The SQL of one page (limit + 1 rows: the extra one answers hasMore without
 * counting). ORDER BY matches notifications_recipient_idx (recipient_id,
 * created_at DESC NULLS LAST, id DESC NULLS LAST) exactly, so a page reads a
 * few index entries instead of sorting the member's notifications. Exported
 * for the test that checks the plan.
 */
export function notificationPageQuery(userId: string, limit: number, cursor?: string | null): SQL {
  let where = sql`n.recipient_id = ${userId}`;
  if (cursor) {
    const { at, id } = decodeCursor(cursor);
    where = sql`${where} AND (n.created_at, n.id) < (${at}::timestamptz, ${id}::uuid)`;
  }
  return sql`SELECT ${COLUMNS}
        FROM notifications n LEFT JOIN users s ON s.id = n.sender_id
        WHERE ${where} AND ${NOT_FROM_BLOCKED}
        ORDER BY n.created_at DESC NULLS LAST, n.id DESC NULLS LAST
        LIMIT ${limit + 1}`;
}

/** GET /api/notifications: the caller's notifications, newest first, with the unread count over all of them. */
export async function listNotifications(
  actor: Actor,
  page: { limit: number; cursor?: string | null },
): Promise<NotificationListDto> {
  const userId = requireMember(actor).user.id;
  const db = await getDb();
  const [rows, unreadCount] = await Promise.all([
    queryRows<NotificationRow>(db, notificationPageQuery(userId, page.limit, page.cursor)),
    countUnread(userId),
  ]);
  const hasMore = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  return {
    notifications: shown.map(toDto),
    unreadCount,
    pagination: { hasMore, nextCursor: hasMore ? encodeCursor(shown[shown.length - 1]!) : null },
  };
}

/** PUT /api/notifications/{id}/read: idempotent; another member's notification is a 404 like a missing one. */
export async function markNotificationRead(
  actor: Actor,
  id: string,
): Promise<{ success: true; notification: NotificationDto; unreadCount: number }> {
  const userId = requireMember(actor).user.id;
  const db = await getDb();
  // Marking an already read notification keeps its first read time.
  const [row] = await queryRows<NotificationRow>(
    db,
    sql`WITH n AS (
          UPDATE notifications SET read_at = coalesce(read_at, now())
          WHERE id = ${id} AND recipient_id = ${userId}
          RETURNING *
        )
        SELECT ${COLUMNS} FROM n LEFT JOIN users s ON s.id = n.sender_id`,
  );
  if (!row) throw new ApiError(404, NOTIFICATION_NOT_FOUND);
  return { success: true, notification: toDto(row), unreadCount: await countUnread(userId) };
}

/**
 * PUT /api/notifications/read-all: marks the caller's unread notifications
 * read. With `upTo` (the newest notification the member has seen), only that
 * one and older ones, so one arriving in the meantime stays unread.
 */
export async function markAllNotificationsRead(
  actor: Actor,
  upTo?: string,
): Promise<{ success: true; updated: number; unreadCount: number }> {
  const userId = requireMember(actor).user.id;
  const db = await getDb();
  let bound = sql``;
  if (upTo) {
    const [seen] = await queryRows<{ id: string }>(
      db,
      sql`SELECT id FROM notifications WHERE id = ${upTo} AND recipient_id = ${userId}`,
    );
    if (!seen) throw new ApiError(404, NOTIFICATION_NOT_FOUND);
    bound = sql`AND (n.created_at, n.id) <= (SELECT created_at, id FROM notifications WHERE id = ${upTo})`;
  }
  const [result] = await queryRows<{ n: number | string }>(
    db,
    sql`WITH updated AS (
          UPDATE notifications n SET read_at = now()
          WHERE n.recipient_id = ${userId} AND n.read_at IS NULL ${bound}
          RETURNING 1
        )
        SELECT count(*)::int AS n FROM updated`,
  );
  return { success: true, updated: Number(result?.n ?? 0), unreadCount: await countUnread(userId) };
}
