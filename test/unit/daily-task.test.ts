import { addUtcDays, countdownText, currentStreak, isSameLocalDay, nextUtcMidnight, utcDay } from '@/lib/format/daily-task';
import { DAILY_TASK_MAX, TASK_MESSAGES } from '@/lib/validation/task-messages';
import { dailyTaskCreateSchema, dailyTaskUpdateSchema, isCalendarDay } from '@/lib/validation/tasks';

const HOUR = 3_600_000;

describe('the countdown line', () => {
  it.each([
    [(5 * 3600 + 4 * 60 + 3) * 1000, 'Next task in: 05h 04m 03s'],
    [(5 * 3600 + 4 * 60 + 3) * 1000 + 999, 'Next task in: 05h 04m 03s'],
    [24 * HOUR, 'Next task in: 24h 00m 00s'],
    [23 * HOUR + 59 * 60_000 + 59_000, 'Next task in: 23h 59m 59s'],
    [61_000, 'Next task in: 00h 01m 01s'],
    [1000, 'Next task in: 00h 00m 01s'],
  ])('%i ms left → %s', (ms, text) => {
    expect(countdownText(ms)).toBe(text);
  });

  it.each([[999], [0], [-1], [-HOUR], [Number.NaN]])('%d ms left is not positive → New task available soon!', (ms) => {
    expect(countdownText(ms)).toBe('New task available soon!');
  });
});

describe('UTC days', () => {
  it('names the UTC day of a moment, whatever the local zone', () => {
    expect(utcDay(Date.parse('2026-11-22T23:59:59.999Z'))).toBe('2026-11-22');
    expect(utcDay(Date.parse('2026-11-23T00:00:00Z'))).toBe('2026-11-23');
  });

  it('counts days across months, years and leap days', () => {
    expect(addUtcDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addUtcDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addUtcDays('2026-05-10', -10)).toBe('2026-04-30');
  });

  it('finds the next UTC midnight; a moment exactly at midnight gets the following one', () => {
    expect(nextUtcMidnight(Date.parse('2026-11-22T18:30:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(nextUtcMidnight(Date.parse('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });
});

describe('the local calendar day (the button state)', () => {
  // 06:00 UTC on the 22nd is 22:00 on the 21st in Los Angeles; 23:00 UTC on the 21st is 15:00 there.
  const now = Date.parse('2026-11-22T06:00:00Z');
  const lastEvening = '2026-11-21T23:00:00.000Z';

  it('compares calendar days where the member is, not UTC days', () => {
    expect(isSameLocalDay(lastEvening, now, 'America/Los_Angeles')).toBe(true);
    expect(isSameLocalDay(lastEvening, now, 'UTC')).toBe(false);
    // 12:00 and 19:00 on the 22nd in Auckland; 23:00 on the 21st there is another day.
    expect(isSameLocalDay(lastEvening, now, 'Pacific/Auckland')).toBe(true);
    expect(isSameLocalDay('2026-11-21T10:00:00.000Z', now, 'Pacific/Auckland')).toBe(false);
    // Just either side of local midnight in Los Angeles (08:00 UTC in winter).
    expect(isSameLocalDay('2026-11-22T07:59:59Z', Date.parse('2026-11-22T08:00:00Z'), 'America/Los_Angeles')).toBe(false);
    expect(isSameLocalDay('2026-11-22T08:00:00Z', Date.parse('2026-11-23T07:59:59Z'), 'America/Los_Angeles')).toBe(true);
  });

  it('uses the zone the code runs in by default', () => {
    const local = new Date(2026, 10, 22, 0, 0, 1);
    expect(isSameLocalDay(local, new Date(2026, 10, 22, 23, 59, 59))).toBe(true);
    expect(isSameLocalDay(local, new Date(2026, 10, 21, 23, 59, 59))).toBe(false);
  });

  it('treats no date, or an unreadable one, as not today', () => {
    expect(isSameLocalDay(null, now)).toBe(false);
    expect(isSameLocalDay(undefined, now)).toBe(false);
    expect(isSameLocalDay('not a date', now)).toBe(false);
  });
});

describe('the current streak', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it('counts while the last completion was today or yesterday (UTC), else 0', () => {
    expect(currentStreak(4, '2026-11-22T01:00:00Z', now)).toBe(4);
    expect(currentStreak(4, '2026-11-21T23:59:59Z', now)).toBe(4);
    expect(currentStreak(4, '2026-11-20T23:59:59Z', now)).toBe(0);
    expect(currentStreak(0, '2026-11-22T01:00:00Z', now)).toBe(0);
    expect(currentStreak(3, null, now)).toBe(0);
    expect(currentStreak(3, 'garbage', now)).toBe(0);
  });
});

describe('admin task input', () => {
  it('accepts real days, refuses impossible ones', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2026-13-01')).toBe(false);
    expect(isCalendarDay('2026-5-1')).toBe(false);
  });

  it('normalises the text, and an empty day means the pool', () => {
    expect(dailyTaskCreateSchema.parse({ description: ' a\r\nb ', scheduledFor: '' })).toEqual({
      description: 'a\nb',
      scheduledFor: null,
    });
    expect(dailyTaskCreateSchema.parse({ description: 'x' })).toEqual({ description: 'x', scheduledFor: null });
    expect(dailyTaskCreateSchema.parse({ description: 'x', scheduledFor: ' 2030-01-02 ' })).toEqual({
      description: 'x',
      scheduledFor: '2030-01-02',
    });
  });

  it('says what is wrong', () => {
    const first = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;
    expect(first(dailyTaskCreateSchema.safeParse({ description: '' }))).toBe(TASK_MESSAGES.descriptionRequired);
    expect(first(dailyTaskCreateSchema.safeParse({ description: 'é'.repeat(DAILY_TASK_MAX + 1) }))).toBe(
      TASK_MESSAGES.descriptionTooLong,
    );
    expect(first(dailyTaskCreateSchema.safeParse({ description: 'x', scheduledFor: '01/05/2030' }))).toBe(TASK_MESSAGES.badDate);
    expect(first(dailyTaskUpdateSchema.safeParse({}))).toBe(TASK_MESSAGES.nothingToChange);
    expect(dailyTaskUpdateSchema.parse({ scheduledFor: null })).toEqual({ scheduledFor: null });
  });
});
