import { badRequest } from './errors';

/**
 * The time part of keyset cursors: the exact UTC text PostgreSQL writes with
 * to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), so a cursor compares equal to
 * the stored value. A cursor comes from the client, so it is checked to be a
 * real calendar time too: JavaScript rolls 30 February over to March, while
 * PostgreSQL refuses it (a 500 instead of a 400).
 */
export const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A timestamp JavaScript reads back as the same calendar second. */
export function isRealTime(at: string): boolean {
  const time = Date.parse(at);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 19) === at.slice(0, 19);
}

/** An exact cursor time (microseconds) that is also a real calendar time. */
export const isExactCursorTime = (at: string): boolean => EXACT_TIME.test(at) && isRealTime(at);

export const INVALID_CURSOR_MESSAGE = 'The cursor is not valid. Start again from page 1.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cursor of a member's list ordered by (time, video id), newest first: Watch later, history. */
export const encodeTimeIdCursor = (at: string, id: string): string => Buffer.from(`${at}|${id}`).toString('base64url');

/** Reads encodeTimeIdCursor's cursor back; anything else (it comes from the client) is a 400. */
export function decodeTimeIdCursor(cursor: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || extra !== undefined || !isExactCursorTime(at) || !UUID.test(id)) throw badRequest(INVALID_CURSOR_MESSAGE);
  return { at, id };
}

/**
 * One page of such a list from its rows (asked for with LIMIT limit + 1, so one more row means a next page): the
 * rows to show and the pagination, its next cursor naming the last row shown.
 */
export function timeIdPage<R extends { id: string }>(
  rows: R[],
  request: { limit: number; page?: number },
  timeOf: (row: R) => string,
): { shown: R[]; pagination: { page: number; limit: number; hasMore: boolean; nextCursor: string | null } } {
  const hasMore = rows.length > request.limit;
  const shown = rows.slice(0, request.limit);
  const last = shown[shown.length - 1];
  return {
    shown,
    pagination: {
      page: request.page ?? 1,
      limit: request.limit,
      hasMore,
      nextCursor: hasMore && last ? encodeTimeIdCursor(timeOf(last), last.id) : null,
    },
  };
}
