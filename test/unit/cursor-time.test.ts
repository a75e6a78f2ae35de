import fc from 'fast-check';

import { isExactCursorTime } from '@/lib/server/cursor-time';

describe('cursor times', () => {
  it('takes the exact UTC text PostgreSQL writes', () => {
    expect(isExactCursorTime('2026-11-25T01:02:03.123456Z')).toBe(true);
    expect(isExactCursorTime('2024-02-29T23:59:59.999999Z')).toBe(true);
  });

  it('refuses times PostgreSQL would refuse or that are not exact', () => {
    for (const at of [
      '2026-02-30T00:00:00.000000Z',
      '2025-02-29T00:00:00.000000Z',
      '2026-13-01T00:00:00.000000Z',
      '2026-01-01T24:00:00.000000Z',
      '2026-01-01T00:60:00.000000Z',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01 00:00:00.000000Z',
      '',
    ]) {
      expect(isExactCursorTime(at)).toBe(false);
    }
  });

  it('accepts every real instant in its exact text, and whatever it accepts is a real instant', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 999 }),
        (date, micros) => {
          const at = `${date.toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
          expect(isExactCursorTime(at)).toBe(true);
        },
      ),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/), (at) => {
        if (isExactCursorTime(at)) expect(new Date(Date.parse(at)).toISOString().slice(0, 19)).toBe(at.slice(0, 19));
      }),
    );
  });
});
