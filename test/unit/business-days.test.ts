import { addBusinessDays, isBusinessDay } from '@/lib/format/business-days';

// 2026-11-16 is a Monday.
const at = (day: string, time = '10:30:00') => new Date(`${day}T${time}Z`);
const iso = (date: Date) => date.toISOString();

describe('business days (Monday to Friday, UTC)', () => {
  it('knows weekdays from weekends', () => {
    expect(isBusinessDay(at('2026-11-16'))).toBe(true); // Monday
    expect(isBusinessDay(at('2026-11-20'))).toBe(true); // Friday
    expect(isBusinessDay(at('2026-11-21'))).toBe(false); // Saturday
    expect(isBusinessDay(at('2026-11-22'))).toBe(false); // Sunday
    // Judged in UTC whatever the server's zone: Friday 23:30 UTC is still Friday.
    expect(isBusinessDay(at('2026-11-20', '23:30:00'))).toBe(true);
  });

  it.each([
    ['Monday + 7 is the next Wednesday', '2026-11-16', 7, '2026-11-25'],
    ['Wednesday + 7 skips one weekend', '2026-11-18', 7, '2026-11-27'],
    ['Friday + 1 is Monday', '2026-11-20', 1, '2026-11-23'],
    ['Friday + 7 is the Tuesday after next', '2026-11-20', 7, '2026-12-01'],
    ['Saturday + 1 is Monday', '2026-11-21', 1, '2026-11-23'],
    ['Sunday + 7 is the next Tuesday', '2026-11-22', 7, '2026-12-01'],
    ['Thursday + 10 skips two weekends', '2026-11-19', 10, '2026-12-03'],
    ['across a month and year end', '2026-12-29', 7, '2027-01-07'],
  ])('%s', (_name, start, days, due) => {
    expect(iso(addBusinessDays(at(start), days))).toBe(iso(at(due)));
  });

  it('keeps the time of day and accepts strings and numbers', () => {
    expect(iso(addBusinessDays('2026-11-20T18:45:12.345Z', 1))).toBe('2026-11-23T18:45:12.345Z');
    expect(iso(addBusinessDays(at('2026-11-16').getTime(), 2))).toBe(iso(at('2026-11-18')));
  });

  it('adds nothing for zero days, even on a weekend', () => {
    expect(iso(addBusinessDays(at('2026-11-21'), 0))).toBe(iso(at('2026-11-21')));
  });

  it('refuses negative or fractional days and invalid dates', () => {
    expect(() => addBusinessDays(at('2026-11-16'), -1)).toThrow(RangeError);
    expect(() => addBusinessDays(at('2026-11-16'), 1.5)).toThrow(RangeError);
    expect(() => addBusinessDays('not a date', 1)).toThrow(RangeError);
  });
});
