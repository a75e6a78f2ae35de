/**
 * "3 days ago" in the spec's units: seconds under a minute, minutes under an
 * hour, hours under a day, days under a week, weeks under 30 days, months
 * under 365 days, then years. Future dates (clock skew) read as "just now".
 */
const UNITS = [
  { limit: 60, seconds: 1, name: 'second' },
  { limit: 3600, seconds: 60, name: 'minute' },
  { limit: 86_400, seconds: 3600, name: 'hour' },
  { limit: 7 * 86_400, seconds: 86_400, name: 'day' },
  { limit: 30 * 86_400, seconds: 7 * 86_400, name: 'week' },
  { limit: 365 * 86_400, seconds: 30 * 86_400, name: 'month' },
  { limit: Infinity, seconds: 365 * 86_400, name: 'year' },
] as const;

export function relativeTime(date: Date | string | number, now: number = Date.now()): string {
  const then = new Date(date).getTime();
  if (Number.isNaN(then)) return '';
  const elapsed = Math.floor((now - then) / 1000);
  if (elapsed < 1) return 'just now';
  const unit = UNITS.find((candidate) => elapsed < candidate.limit)!;
  const count = Math.max(1, Math.floor(elapsed / unit.seconds));
  return `${count} ${unit.name}${count === 1 ? '' : 's'} ago`;
}
