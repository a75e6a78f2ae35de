import 'server-only';

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ProbeResult {
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
  formatName: string;
}

export class NotAVideoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAVideoError';
  }
}

interface FfprobeOutput {
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string; disposition?: { attached_pic?: number } }[];
  format?: { format_name?: string; duration?: string };
}

/**
 * Decides by content whether a file is a playable video: ffprobe must read
 * it without errors, find a real video stream (not just cover art) with
 * dimensions, and a positive duration. Truncated or corrupt files fail here.
 */
export async function probeVideo(file: string): Promise<ProbeResult> {
  let output: FfprobeOutput;
  try {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
      timeout: 60_000,
      maxBuffer: 4 * 1024 * 1024,
    });
    output = JSON.parse(stdout) as FfprobeOutput;
  } catch {
    throw new NotAVideoError('This file is not a video we can read. It may be damaged or incomplete; try exporting it again as MP4, MOV, WebM or MKV.');
  }
  const video = output.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic && s.width && s.height);
  if (!video) throw new NotAVideoError('This file has no video picture in it. Please upload a video file.');
  const duration = Number(output.format?.duration ?? video.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new NotAVideoError('This video has no length we can read. It may be damaged or incomplete.');
  const audio = output.streams?.find((s) => s.codec_type === 'audio');
  return {
    durationSeconds: duration,
    width: video.width!,
    height: video.height!,
    videoCodec: video.codec_name ?? 'unknown',
    audioCodec: audio?.codec_name ?? null,
    formatName: output.format?.format_name ?? 'unknown',
  };
}
