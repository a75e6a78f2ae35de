import {
  isFinished,
  LOCAL_PROGRESS_MAX,
  parseLocalProgress,
  resumePosition,
  watchedShare,
  withLocalProgress,
} from '@/lib/watch-progress';

describe('the resume decision', () => {
  it('resumes from where the viewer stopped', () => {
    expect(resumePosition({ positionSeconds: 754, finished: false }, 1800)).toBe(754);
  });

  it('starts over when they barely started, watched to the end, or there is nothing saved', () => {
    expect(resumePosition({ positionSeconds: 4.9, finished: false }, 1800)).toBeNull();
    expect(resumePosition({ positionSeconds: 900, finished: true }, 1800)).toBeNull();
    expect(resumePosition({ positionSeconds: 1795, finished: false }, 1800)).toBeNull();
    expect(resumePosition(null, 1800)).toBeNull();
    expect(resumePosition({ positionSeconds: Number.NaN, finished: false }, 1800)).toBeNull();
  });

  it('resumes in a video whose duration the player does not know yet', () => {
    expect(resumePosition({ positionSeconds: 30, finished: false }, Number.NaN)).toBe(30);
    expect(resumePosition({ positionSeconds: 30, finished: false }, null)).toBe(30);
  });

  it('counts the last 10 s, or the last 5 % of a long video, as finished', () => {
    expect(isFinished(50, 60)).toBe(true);
    expect(isFinished(49.9, 60)).toBe(false);
    // 5 % of an hour is 3 minutes.
    expect(isFinished(3420, 3600)).toBe(true);
    expect(isFinished(3419, 3600)).toBe(false);
    expect(isFinished(100, null)).toBe(false);
    expect(isFinished(100, 0)).toBe(false);
  });

  it('gives the share watched for the card bar', () => {
    expect(watchedShare(30, false, 120)).toBe(0.25);
    expect(watchedShare(30, true, 120)).toBe(1);
    expect(watchedShare(500, false, 120)).toBe(1);
    expect(watchedShare(30, false, null)).toBeNull();
  });
});

describe("a visitor's progress in the browser", () => {
  it('keeps the most recent videos only, newest first', () => {
    let progress = {};
    for (let i = 0; i < LOCAL_PROGRESS_MAX + 5; i++)
      progress = withLocalProgress(progress, `video${i}`, i + 0.7, false, 1000 + i);
    const ids = Object.keys(progress);
    expect(ids).toHaveLength(LOCAL_PROGRESS_MAX);
    expect(ids[0]).toBe(`video${LOCAL_PROGRESS_MAX + 4}`);
    expect(ids).not.toContain('video4');
    expect(ids).toContain('video5');
    // Whole seconds: the stored value stays small.
    expect(progress).toMatchObject({ video10: [10, 0, 1010] });
  });

  it('moves a video watched again to the front and marks it finished', () => {
    const progress = withLocalProgress(withLocalProgress({}, 'a', 10, false, 1), 'b', 20, false, 2);
    const again = withLocalProgress(progress, 'a', 600, true, 3);
    expect(Object.keys(again)).toEqual(['a', 'b']);
    expect(again.a).toEqual([600, 1, 3]);
  });

  it('reads back what it wrote and drops anything malformed', () => {
    const stored = JSON.stringify(withLocalProgress({}, 'abc', 42, false, 5));
    expect(parseLocalProgress(stored)).toEqual({ abc: [42, 0, 5] });
    expect(parseLocalProgress(null)).toEqual({});
    expect(parseLocalProgress('not json')).toEqual({});
    expect(parseLocalProgress('[1,2,3]')).toEqual({});
    expect(
      parseLocalProgress(
        JSON.stringify({ ok: [1, 1, 2], negative: [-1, 0, 2], text: ['1', 0, 2], flag: [1, 2, 2], short: [1, 0] }),
      ),
    ).toEqual({ ok: [1, 1, 2] });
  });
});
