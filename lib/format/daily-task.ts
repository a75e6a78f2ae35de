/**
 * Time rules of the daily task, shared by the server and the home banner.
 *
 * Two calendars meet here on purpose (docs/architecture.md, "Daily task"):
 * the server counts tasks by **UTC day** (one task and one completion per UTC
 * day for everyone, and the countdown runs to the next UTC midnight, spec
 * section 9), while the spec's button state compares the last completion
 * with today in the member's **local calendar** (spec section 4).
 */

const DAY_MS = 86_400_000;

export const NO_COUNTDOWN_TEXT = 'New task available soon!';

/** The UTC calendar day of a moment, as YYYY-MM-DD. */
export function utcDay(at: Date | number = Date.now()): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The UTC day `days` after (or before, when negative) a YYYY-MM-DD day. */
export function addUtcDays(day: string, days: number): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

/** The next UTC midnight after a moment (a moment exactly at midnight gets the following one). */
export function nextUtcMidnight(at: Date | number = Date.now()): Date {
  return new Date(Date.parse(`${addUtcDays(utcDay(at), 1)}T00:00:00Z`));
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * The countdown line: 'Next task in: 05h 04m 03s' (zero-padded, whole
 * seconds left, rounded down), or 'New task available soon!' once no whole
 * second is left, so it never reads "00h 00m 00s".
 */
export function countdownText(msLeft: number): string {
  const seconds = Number.isFinite(msLeft) ? Math.floor(msLeft / 1000) : 0;
  if (seconds <= 0) return NO_COUNTDOWN_TEXT;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `Next task in: ${pad(hours)}h ${pad(minutes)}m ${pad(seconds % 60)}s`;
}

/** The calendar day of a moment in a time zone (default: the one this code runs in, the browser's), as YYYY-MM-DD. */
function calendarDay(at: Date, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    at,
  );
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * Whether a moment falls on the same local calendar day as `now`: in the
 * browser's time zone unless one is named. Null or unreadable: false.
 */
export function isSameLocalDay(
  moment: string | Date | null | undefined,
  now: Date | number = Date.now(),
  timeZone?: string,
): boolean {
  if (moment === null || moment === undefined) return false;
  const then = new Date(moment);
  if (Number.isNaN(then.getTime())) return false;
  return calendarDay(then, timeZone) === calendarDay(new Date(now), timeZone);
}

/**
 * The streak as of `now`: the stored run of consecutive UTC days counts while
 * its last day is today or yesterday (today's task can still extend it);
 * after a missed day it is 0.
 */
export function currentStreak(
  storedStreak: number,
  lastCompleted: Date | string | null,
  now: Date | number = Date.now(),
): number {
  const last = lastCompleted === null ? NaN : new Date(lastCompleted).getTime();
  if (Number.isNaN(last) || storedStreak <= 0) return 0;
  const lastDay = utcDay(last);
  const today = utcDay(now);
  return lastDay === today || lastDay === addUtcDays(today, -1) ? storedStreak : 0;
}
