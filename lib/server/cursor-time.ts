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
