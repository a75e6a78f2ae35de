/**
 * A report's clock as the admin queue shows it: "5 hours 20 minutes left",
 * "overdue by 2 days 3 hours". Whole minutes, the two largest units, so it
 * reads at a glance and never claims precision it does not have.
 */
export function durationInWords(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (days > 0) return hours > 0 ? `${unit(days, 'day')} ${unit(hours, 'hour')}` : unit(days, 'day');
  if (hours > 0) return mins > 0 ? `${unit(hours, 'hour')} ${unit(mins, 'minute')}` : unit(hours, 'hour');
  return unit(mins, 'minute');
}

export function dueClock(dueAt: Date, now: number): { overdue: boolean; text: string } {
  const left = dueAt.getTime() - now;
  return left >= 0
    ? { overdue: false, text: `${durationInWords(left)} left` }
    : { overdue: true, text: `overdue by ${durationInWords(-left)}` };
}
