/**
 * Business days: Monday to Friday in UTC. Public holidays are not counted
 * out (they differ by country); a report queue's due date is a target, not
 * a legal deadline computed to the day.
 */
const DAY_MS = 86_400_000;

export function isBusinessDay(date: Date): boolean {
  const weekday = date.getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

/**
 * The moment `days` business days after `start`, at the same time of day.
 * Weekends are skipped: Friday + 1 is Monday, and a start on a weekend
 * counts from that weekend (Saturday + 1 is Monday). Zero days is `start`.
 */
export function addBusinessDays(start: Date | string | number, days: number): Date {
  if (!Number.isInteger(days) || days < 0) throw new RangeError('days must be a whole number, zero or more');
  let time = new Date(start).getTime();
  if (Number.isNaN(time)) throw new RangeError('start is not a valid date');
  let left = days;
  while (left > 0) {
    time += DAY_MS;
    if (isBusinessDay(new Date(time))) left -= 1;
  }
  return new Date(time);
}
