import 'server-only';

import { execFile } from 'node:child_process';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import type { ProbeResult } from './probe';

const run = promisify(execFile);

/** Whether browsers play the source as it is (H.264 video, AAC or no audio, in MP4/MOV): then a remux suffices. */
export function canRemux(probe: Pick<ProbeResult, 'videoCodec' | 'audioCodec' | 'formatName'>): boolean {
  const container = probe.formatName.split(',');
  return probe.videoCodec === 'h264' && (probe.audioCodec === null || probe.audioCodec === 'aac') && (container.includes('mp4') || container.includes('mov'));
}

async function ffmpeg(args: string[], timeoutMs: number) {
  try {
    await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args], { timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim().split('\n').slice(-3).join(' ');
    throw new Error(`ffmpeg failed: ${stderr || (error as Error).message}`);
  }
}

/**
 * A web-optimised MP4 that plays at once: the index (moov) at the front so
 * playback starts before the download ends. Remuxed without re-encoding when
 * the codecs allow (seconds even for long videos), else a fast H.264/AAC
 * transcode. Written to a temp name and renamed, so a crash never leaves a
 * half file in place and a rerun is harmless.
 */
export async function makeWebMp4(source: string, target: string, probe: ProbeResult): Promise<'remux' | 'transcode'> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.partial.mp4`;
  const mode = canRemux(probe) ? 'remux' : 'transcode';
  const codec =
    mode === 'remux'
      ? ['-c', 'copy']
      : ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k'];
  try {
    await ffmpeg(['-i', source, '-map', '0:v:0', '-map', '0:a:0?', ...codec, '-movflags', '+faststart', temp], 6 * 60 * 60 * 1000);
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
  return mode;
}

/** A thumbnail from a representative frame (a quarter in, past intros and fades), 640 px wide. */
export async function makeThumbnail(source: string, target: string, durationSeconds: number): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.partial.jpg`;
  const at = Math.max(0, Math.min(durationSeconds * 0.25, durationSeconds - 0.1));
  try {
    await ffmpeg(['-ss', at.toFixed(2), '-i', source, '-frames:v', '1', '-vf', 'scale=640:-2', '-q:v', '3', temp], 5 * 60 * 1000);
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}
