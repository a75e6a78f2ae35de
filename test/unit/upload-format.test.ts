import { checkVideoFile, formatBytes, percentOf, progressLabel, retryLabel, videoStatusView } from '@/lib/client/format';

const MB = 1024 * 1024;

describe('upload page wording', () => {
  it('formats sizes in 1024-based units with one decimal', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12.3 * MB)).toBe('12.3 MB');
    expect(formatBytes(80 * MB)).toBe('80.0 MB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0 MB'); // rounds up into the next unit, never "1024.0 KB"
    expect(formatBytes(4 * 1024 * MB)).toBe('4.0 GB');
    expect(formatBytes(4 * 1024 * MB, { trim: true })).toBe('4 GB');
    expect(formatBytes(-1)).toBe('0 B');
    expect(formatBytes(Number.NaN)).toBe('0 B');
  });

  it('gives whole percents that reach 100 only at the last byte', () => {
    expect(percentOf(0, 100)).toBe(0);
    expect(percentOf(15, 100)).toBe(15);
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(1000, 1000)).toBe(100);
    expect(percentOf(5, 0)).toBe(0);
    expect(progressLabel(12.3 * MB, 80 * MB)).toBe('12.3 MB of 80.0 MB · 15%');
    expect(progressLabel(90 * MB, 80 * MB)).toBe('80.0 MB of 80.0 MB · 100%');
  });

  it('words the retry wait', () => {
    expect(retryLabel({ secondsLeft: 2, attempt: 2, maxAttempts: 3, serverError: false })).toBe(
      'Connection lost. Retrying in 2 s… (attempt 2 of 3)',
    );
    expect(retryLabel({ secondsLeft: 0, attempt: 3, maxAttempts: 3, serverError: true })).toBe(
      'The server had a problem. Retrying… (attempt 3 of 3)',
    );
  });

  it('checks the chosen file in the server’s words', () => {
    const file = (name: string, size: number, type: string) => ({ name, size, type });
    expect(checkVideoFile(null, 100 * MB)).toBe('Choose a video file to upload.');
    expect(checkVideoFile(file('a.mp4', 0, 'video/mp4'), 100 * MB)).toBe('The video file is empty.');
    expect(checkVideoFile(file('a.mp4', 200 * MB, 'video/mp4'), 100 * MB)).toBe('This video is too large. The limit is 100 MB.');
    expect(checkVideoFile(file('photo.jpg', 10, 'image/jpeg'), 100 * MB)).toMatch(/not a video/);
    expect(checkVideoFile(file('a.mp4', 10, 'video/mp4'), 100 * MB)).toBeNull();
    // Types browsers leave empty or generic go to the server, which checks the content.
    expect(checkVideoFile(file('clip.mkv', 10, ''), 100 * MB)).toBeNull();
    expect(checkVideoFile(file('clip.bin', 10, 'application/octet-stream'), 100 * MB)).toBeNull();
    expect(checkVideoFile(file('clip.mov', 10, 'application/x-unknown'), 100 * MB)).toBeNull();
  });

  it('turns processing state and review into one line, a rejection first', () => {
    const base = { status: 'queued', moderationStatus: 'pending', processingError: null, rejectionReason: null } as const;
    expect(videoStatusView(base)).toMatchObject({ text: 'Processing…', badge: 'Processing', tone: 'working', settled: false });
    expect(videoStatusView({ ...base, status: 'processing' })).toMatchObject({ text: 'Processing…', settled: false });
    expect(videoStatusView({ ...base, status: 'ready' })).toMatchObject({
      text: 'Ready — waiting for review',
      badge: 'Waiting for review',
      tone: 'waiting',
      settled: true,
    });
    expect(videoStatusView({ ...base, status: 'ready', moderationStatus: 'approved' })).toMatchObject({
      text: 'Approved — live',
      badge: 'Live',
      tone: 'live',
    });
    expect(videoStatusView({ ...base, status: 'ready', moderationStatus: 'rejected', rejectionReason: 'Blurry' })).toMatchObject({
      text: 'Not approved: Blurry',
      reason: 'Blurry',
      tone: 'bad',
    });
    expect(videoStatusView({ ...base, status: 'failed', processingError: 'No video stream' })).toMatchObject({
      text: 'Processing failed: No video stream',
      badge: 'Processing failed',
      settled: true,
    });
    expect(videoStatusView({ ...base, status: 'failed', processingError: '  ' }).text).toBe('Processing failed: unknown error.');
    expect(videoStatusView({ ...base, status: 'failed', moderationStatus: 'rejected', rejectionReason: 'Spam' }).text).toBe(
      'Not approved: Spam',
    );
  });
});
