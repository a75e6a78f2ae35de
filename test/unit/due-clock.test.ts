import { dueClock, durationInWords } from '@/lib/format/due-clock';

describe('the report clock', () => {
  const now = Date.parse('2026-06-10T12:00:00Z');
  it.each([
    [0, '0 minutes'],
    [59_000, '0 minutes'],
    [60_000, '1 minute'],
    [3_600_000, '1 hour'],
    [3_600_000 + 5 * 60_000, '1 hour 5 minutes'],
    [48 * 3_600_000, '2 days'],
    [49 * 3_600_000, '2 days 1 hour'],
  ])('%i ms reads "%s"', (ms, words) => expect(durationInWords(ms)).toBe(words));

  it('counts down, then up as overdue', () => {
    expect(dueClock(new Date(now + 22 * 3_600_000), now)).toEqual({ overdue: false, text: '22 hours left' });
    expect(dueClock(new Date(now), now)).toEqual({ overdue: false, text: '0 minutes left' });
    expect(dueClock(new Date(now - 51 * 3_600_000), now)).toEqual({ overdue: true, text: 'overdue by 2 days 3 hours' });
  });
});
