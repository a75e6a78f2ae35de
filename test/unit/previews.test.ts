import fc from 'fast-check';

import { parsePreviewFile, previewClipUrl, previewFileName, storyboardUrl } from '@/lib/media/previews';
import { previewWindows, storyboardPlan, storyboardVtt } from '@/lib/server/media/previews';

describe('storyboard plan', () => {
  it('takes a frame every 2 s in rows of ten, 160 px on the long side', () => {
    expect(storyboardPlan({ durationSeconds: 30, width: 1920, height: 1080 })).toEqual({
      interval: 2,
      count: 15,
      columns: 10,
      rows: 2,
      tileWidth: 160,
      tileHeight: 90,
    });
    expect(storyboardPlan({ durationSeconds: 7, width: 360, height: 640 })).toMatchObject({
      count: 4,
      columns: 4,
      rows: 1,
      tileWidth: 90,
      tileHeight: 160,
    });
  });

  it('never has more than 100 tiles, and covers every second of any video', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 24 * 3600, noNaN: true }),
        fc.integer({ min: 0, max: 8000 }),
        fc.integer({ min: 0, max: 8000 }),
        (durationSeconds, width, height) => {
          const plan = storyboardPlan({ durationSeconds, width, height });
          expect(plan.count).toBeGreaterThanOrEqual(1);
          expect(plan.count).toBeLessThanOrEqual(100);
          expect(plan.columns * plan.rows).toBeGreaterThanOrEqual(plan.count);
          expect(plan.interval * plan.count).toBeGreaterThanOrEqual(Math.max(durationSeconds, 0.1) - 1e-9);
          expect((plan.tileWidth % 2) + (plan.tileHeight % 2)).toBe(0);
          expect(Math.max(plan.tileWidth, plan.tileHeight)).toBeGreaterThanOrEqual(160);
        },
      ),
    );
  });
});

describe('storyboard WebVTT', () => {
  it('maps each interval to its tile of the versioned sprite, the last cue to the end', () => {
    const plan = storyboardPlan({ durationSeconds: 25, width: 1280, height: 720 });
    const vtt = storyboardVtt(plan, 25, 'storyboard-0123456789abcdef.jpg');
    const cues = vtt.split('\n\n').slice(1);
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    expect(cues).toHaveLength(13);
    expect(cues[0]).toBe('00:00:00.000 --> 00:00:02.000\nstoryboard-0123456789abcdef.jpg#xywh=0,0,160,90');
    expect(cues[11]).toBe('00:00:22.000 --> 00:00:24.000\nstoryboard-0123456789abcdef.jpg#xywh=160,90,160,90');
    expect(cues[12]!.trim()).toBe('00:00:24.000 --> 00:00:25.000\nstoryboard-0123456789abcdef.jpg#xywh=320,90,160,90');
  });

  it('writes hours for long videos', () => {
    const plan = storyboardPlan({ durationSeconds: 2 * 3600, width: 1920, height: 1080 });
    expect(plan.interval).toBe(72);
    expect(storyboardVtt(plan, 7200, 's.jpg')).toContain('01:58:48.000 --> 02:00:00.000\ns.jpg#xywh=1440,810,160,90');
  });
});

describe('preview clip moments', () => {
  it('samples five moments across a video, or the start of a short one', () => {
    expect(previewWindows(100).map((w) => w.start)).toEqual([10, 28, 46, 64, 82]);
    expect(previewWindows(100)[0]).toEqual({ start: 10, end: 11.2 });
    expect(previewWindows(8)).toEqual([{ start: 0, end: 6 }]);
    expect(previewWindows(3)).toEqual([{ start: 0, end: 3 }]);
  });
});

describe('preview URLs', () => {
  it('names each stored file by its version, and reads back only those names', () => {
    expect(storyboardUrl('abc', '0123456789abcdef')).toBe('/media/videos/abc/storyboard-0123456789abcdef.vtt');
    expect(previewClipUrl('abc', '0123456789abcdef')).toBe('/media/videos/abc/preview-0123456789abcdef.mp4');
    expect(storyboardUrl('abc', null)).toBeNull();
    expect(previewClipUrl('abc', '../../etc')).toBeNull();
    expect(parsePreviewFile(previewFileName('storyboard.jpg', '0123456789abcdef'))).toEqual({
      file: 'storyboard.jpg',
      version: '0123456789abcdef',
    });
    for (const name of [
      'preview-0123456789abcdef.jpg',
      'storyboard-0123456789abcdef.mp4',
      'storyboard-0123456789ABCDEF.vtt',
      'storyboard-0123456789abcdef.vtt/x',
      'storyboard.vtt',
      '../storyboard-0123456789abcdef.vtt',
    ])
      expect(parsePreviewFile(name)).toBeNull();
  });
});
