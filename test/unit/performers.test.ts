import { ageOn, isCalendarDate, latestToday, performerLabel } from '@/lib/trust/performers';
import { parsePerformerRecords, streamIdFromVideoLink } from '@/lib/validation/performers';

describe('performer dates', () => {
  it.each([
    ['2008-01-01', '2026-01-01', 18],
    ['2008-01-02', '2026-01-01', 17],
    ['2008-02-29', '2026-02-28', 17],
    ['2008-02-29', '2026-03-01', 18],
    ['1990-12-31', '2026-01-01', 35],
  ])('someone born on %s is %s years old on %s', (born, day, age) => {
    expect(ageOn(born, day)).toBe(age);
  });

  it('knows real calendar dates', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
    expect(isCalendarDate('yesterday')).toBe(false);
  });

  it('takes today anywhere on Earth as not in the future', () => {
    expect(latestToday(Date.parse('2026-03-01T11:00:00Z'))).toBe('2026-03-02');
    expect(latestToday(Date.parse('2026-03-01T09:00:00Z'))).toBe('2026-03-01');
  });

  it('names a performer by stage name, then legal name, then place', () => {
    expect(performerLabel({ stageName: ' Sam ', legalName: 'S D' }, 0)).toBe('Sam');
    expect(performerLabel({ stageName: '', legalName: 'S D' }, 0)).toBe('S D');
    expect(performerLabel({}, 2)).toBe('Co-performer 3');
  });
});

describe('parsePerformerRecords', () => {
  it('refuses a record that is not an object at all', () => {
    expect(parsePerformerRecords(null)).toMatchObject({ ok: false });
    expect(parsePerformerRecords({ recordedOn: '2026-01-01', uploaderAppears: 'yes' })).toMatchObject({
      ok: false,
      problem: { message: 'Say whether you appear in the video.' },
    });
  });

  it('refuses unknown release statements', () => {
    const result = parsePerformerRecords({
      recordedOn: '2026-01-01',
      uploaderAppears: false,
      coPerformers: [
        {
          legalName: 'A B',
          stageName: 'AB',
          dateOfBirth: '1990-01-01',
          consent: 'release_form',
          release: {
            signature: 'A B',
            signedOn: '2026-01-01',
            statements: ['adult', 'filmed', 'publication', 'withdrawal', 'made-up'],
          },
        },
      ],
    });
    expect(result).toMatchObject({ ok: false, problem: { message: 'AB: the release has a statement we do not know.' } });
  });
});

describe('streamIdFromVideoLink', () => {
  it.each([
    ['abc123', 'abc123'],
    ['https://chrysalis.example/video/abc_-1', 'abc_-1'],
    ['https://chrysalis.example/embed/abc123/', 'abc123'],
    ['/video/abc123', 'abc123'],
    ['https://chrysalis.example/profile/abc', null],
    ['https://chrysalis.example/video/a/b', null],
    ['not a link at all', null],
  ])('%s → %s', (link, id) => {
    expect(streamIdFromVideoLink(link)).toBe(id);
  });
});
