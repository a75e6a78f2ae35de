import fc from 'fast-check';

import { compactCount, countLabel, formatDuration, isoDuration } from '@/lib/format/numbers';
import { relativeTime } from '@/lib/format/relative-time';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const ago = (seconds: number) => NOW - seconds * 1000;

describe('relativeTime in the spec units', () => {
  it.each([
    [0, 'just now'],
    [1, '1 second ago'],
    [59, '59 seconds ago'],
    [60, '1 minute ago'],
    [3599, '59 minutes ago'],
    [3600, '1 hour ago'],
    [86_399, '23 hours ago'],
    [86_400, '1 day ago'],
    [6 * 86_400, '6 days ago'],
    [7 * 86_400, '1 week ago'],
    [29 * 86_400, '4 weeks ago'],
    [30 * 86_400, '1 month ago'],
    [364 * 86_400, '12 months ago'],
    [365 * 86_400, '1 year ago'],
    [3 * 365 * 86_400, '3 years ago'],
  ])('%i seconds → %s', (seconds, text) => {
    expect(relativeTime(ago(seconds), NOW)).toBe(text);
  });

  it('reads a future date as just now and an invalid one as nothing', () => {
    expect(relativeTime(NOW + 60_000, NOW)).toBe('just now');
    expect(relativeTime('not a date', NOW)).toBe('');
  });
});

describe('number formats', () => {
  it('compacts counts and labels them', () => {
    expect(compactCount(999)).toBe('999');
    expect(compactCount(1234)).toBe('1.2K');
    expect(countLabel(1, 'view')).toBe('1 view');
    expect(countLabel(2_500_000, 'view')).toBe('2.5M views');
  });

  it('formats durations for cards and for JSON-LD', () => {
    expect(formatDuration(75.4)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(null)).toBeNull();
    expect(isoDuration(75.4)).toBe('PT1M15S');
    expect(isoDuration(3600)).toBe('PT1H');
    expect(isoDuration(0.2)).toBe('PT1S');
  });
});

describe('compactCount', () => {
  const intl = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

  it('writes whole counts as Intl does, at every magnitude and rounding edge', () => {
    for (const value of [
      0, 1, 999, 1000, 1049, 1050, 1150, 1949, 1950, 9999, 99_949, 99_950, 999_949, 999_950, 1_000_000, 1_150_000, 999_950_000,
      1e12, 999_950_000_000_000,
    ]) {
      expect(compactCount(value)).toBe(intl.format(value));
    }
  });

  it('agrees with Intl on any whole count up to a quadrillion', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.nat({ max: 10_000_000 }), fc.integer({ min: 0, max: 1e15 })),
        (value) => compactCount(value) === intl.format(value),
      ),
      { numRuns: 20_000 },
    );
  });

  it('hands fractions, negatives and unsafe numbers to Intl', () => {
    for (const value of [12.34, -1234, 2 ** 60]) expect(compactCount(value)).toBe(intl.format(value));
  });
});
