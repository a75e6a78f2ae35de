import 'server-only';

import { access, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

import { FFMPEG_QUIET, runFfmpeg } from './ffmpeg';
import { ffmpegInputArgs } from './input';
import type { ProbeResult } from './probe';

/** Whether browsers play the source as it is (H.264 video, AAC or no audio, in MP4/MOV): then a remux suffices. */
export function canRemux(probe: Pick<ProbeResult, 'videoCodec' | 'audioCodec' | 'demuxer'>): boolean {
  return probe.videoCodec === 'h264' && (probe.audioCodec === null || probe.audioCodec === 'aac') && probe.demuxer === 'mov';
}

/**
 * A web-optimised MP4 that plays at once: the index (moov) at the front so
 * playback starts before the download ends. Remuxed without re-encoding when
 * the codecs allow (seconds even for long videos), else a fast H.264/AAC
 * transcode. Written to a temp name and renamed, so a crash never leaves a
 * half file in place and a rerun is harmless. The source is read only as
 * the container the probe found. The signal stops ffmpeg.
 */
export async function makeWebMp4(
  source: string,
  target: string,
  probe: ProbeResult,
  options: { signal?: AbortSignal } = {},
): Promise<'remux' | 'transcode'> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.partial.mp4`;
  const mode = canRemux(probe) ? 'remux' : 'transcode';
  const codec =
    mode === 'remux'
      ? ['-c', 'copy']
      : ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k'];
  try {
    const args = [
      ...FFMPEG_QUIET,
      ...ffmpegInputArgs(source, probe.demuxer),
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      ...codec,
      '-movflags',
      '+faststart',
      temp,
    ];
    await runFfmpeg(args, 'ffmpeg (web MP4)', { timeoutMs: 6 * 60 * 60 * 1000, signal: options.signal });
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
  return mode;
}

/** Whether a file exists (ffmpeg exits cleanly without writing a frame when there is none to take). */
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * A thumbnail from a representative frame (a quarter in, past intros and
 * fades), 640 px wide. A seek in a stream without an index (MPEG-TS) can
 * land past its last key frame, and ffmpeg then writes nothing: the first
 * frame is taken instead.
 */
export async function makeThumbnail(
  source: string,
  target: string,
  probe: Pick<ProbeResult, 'durationSeconds' | 'demuxer'>,
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.partial.jpg`;
  const quarterIn = Math.max(0, Math.min(probe.durationSeconds * 0.25, probe.durationSeconds - 0.1));
  try {
    for (const at of new Set([quarterIn, 0])) {
      // -ss before the input seeks in the demuxer (fast) rather than decoding up to it; -update writes one file, never reading its name as a pattern.
      const args = [
        ...FFMPEG_QUIET,
        '-ss',
        at.toFixed(2),
        ...ffmpegInputArgs(source, probe.demuxer),
        '-frames:v',
        '1',
        '-vf',
        'scale=640:-2',
        '-q:v',
        '3',
        '-update',
        '1',
        temp,
      ];
      await runFfmpeg(args, 'ffmpeg (thumbnail)', { timeoutMs: 5 * 60 * 1000, signal: options.signal });
      if (await exists(temp)) break;
    }
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}
