import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Small real media made by ffmpeg's test sources (no binary fixtures in the
 * repository). Call from a test file's top level; files go away after it.
 */
export function mediaFixtures() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-fixtures-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const make = (name: string, args: string[]) => {
    const file = path.join(dir, name);
    execFileSync('ffmpeg', ['-v', 'error', ...args, file]);
    return file;
  };
  return {
    /** H.264/AAC MP4 as ffmpeg writes it by default: index (moov) at the end. */
    h264Clip: (seconds = 2) =>
      make(`h264-${seconds}s.mp4`, [
        '-f',
        'lavfi',
        '-i',
        `testsrc=duration=${seconds}:size=320x240:rate=25`,
        '-f',
        'lavfi',
        '-i',
        `sine=duration=${seconds}`,
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-shortest',
      ]),
    /** Old MPEG-4 Part 2 in AVI: a real video no browser plays. */
    /** MPEG-2 in an MPEG program stream, as camcorders and DVDs write it (.mpg, .vob). */
    mpegPs: () =>
      make('clip.mpg', ['-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=25', '-c:v', 'mpeg2video', '-f', 'mpeg']),
    mpeg4Avi: () => make('mpeg4.avi', ['-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=25', '-c:v', 'mpeg4']),
    /** H.264 MP4 of any size, with a tone unless audio is false (for the HLS ladder). */
    sizedClip: ({
      seconds = 2,
      width,
      height,
      audio = true,
    }: {
      seconds?: number;
      width: number;
      height: number;
      audio?: boolean;
    }) =>
      make(`h264-${width}x${height}-${seconds}s${audio ? '' : '-silent'}.mp4`, [
        '-f',
        'lavfi',
        '-i',
        `testsrc2=duration=${seconds}:size=${width}x${height}:rate=25`,
        ...(audio ? ['-f', 'lavfi', '-i', `sine=duration=${seconds}`, '-c:a', 'aac', '-shortest'] : []),
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
      ]),
    audioOnly: () => make('tone.m4a', ['-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'aac']),
    /** VP8/Vorbis in WebM (the matroska demuxer). */
    webmClip: () =>
      make('clip.webm', [
        '-f',
        'lavfi',
        '-i',
        'testsrc=duration=2:size=320x240:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine=duration=2',
        '-c:v',
        'libvpx',
        '-deadline',
        'realtime',
        '-b:v',
        '300k',
        '-c:a',
        'libvorbis',
        '-shortest',
      ]),
    /** H.264/AAC in Matroska. */
    mkvClip: () =>
      make('clip.mkv', [
        '-f',
        'lavfi',
        '-i',
        'testsrc=duration=2:size=320x240:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine=duration=2',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-shortest',
      ]),
    /** H.264/AAC in MPEG-TS, as cameras and broadcasts write it. */
    tsClip: () =>
      make('clip.ts', [
        '-f',
        'lavfi',
        '-i',
        'testsrc=duration=2:size=320x240:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine=duration=2',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-shortest',
      ]),
    /** An MP4 with its index first, cut where the media data starts: ffprobe reads it (the index is whole), ffmpeg finds no frame to decode. */
    indexOnlyMp4: () => {
      const file = make('index-only.mp4', [
        '-f',
        'lavfi',
        '-i',
        'testsrc=duration=2:size=320x240:rate=25',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
      ]);
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, bytes.indexOf('mdat') - 4));
      return file;
    },
    /** A transcode that takes a few seconds (12 s of MPEG-4 Part 2 at 720p): longer than a short job lease. */
    slowAvi: () =>
      make('slow-720p.avi', ['-f', 'lavfi', '-i', 'testsrc2=duration=12:size=1280x720:rate=25', '-c:v', 'mpeg4', '-q:v', '8']),
    /** Three PNG frames named frame001.png… in a folder of their own; returns the folder. */
    pngFrames: () => {
      const frames = path.join(dir, 'frames');
      mkdirSync(frames, { recursive: true });
      for (const n of ['001', '002', '003'])
        execFileSync('ffmpeg', [
          '-v',
          'error',
          '-f',
          'lavfi',
          '-i',
          'testsrc=size=320x240',
          '-frames:v',
          '1',
          path.join(frames, `frame${n}.png`),
        ]);
      return frames;
    },
  };
}
