import 'server-only';

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { dyingWithParent } from '@/lib/parent-death';

import { stderrTail } from './ffmpeg';
import { allowedDemuxerOf, probeInputArgs, type AllowedDemuxer } from './input';
import { NOT_A_VIDEO_MESSAGES, type NotAVideoReason } from './messages';

const run = promisify(execFile);

export interface ProbeResult {
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
  formatName: string;
  /** The allowed demuxer that read it: every later ffmpeg run forces this one. */
  demuxer: AllowedDemuxer;
}

/**
 * A file we do not take as a video. Its message is one of the fixed texts
 * uploaders see; what ffprobe said (which names server paths) is only in
 * its cause, for the job's last_error.
 */
export class NotAVideoError extends Error {
  constructor(
    readonly reason: NotAVideoReason,
    options?: ErrorOptions,
  ) {
    super(NOT_A_VIDEO_MESSAGES[reason], options);
    this.name = 'NotAVideoError';
  }
}

interface FfprobeOutput {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    duration?: string;
    disposition?: { attached_pic?: number };
  }[];
  format?: { format_name?: string; duration?: string };
}

/**
 * Decides by content whether a file is a playable video: ffprobe must read
 * it without errors as one of the allowed containers (lib/server/media/input.ts;
 * never a playlist or list naming other files), find a real video stream
 * (not just cover art) with dimensions, and a positive duration. Truncated
 * or corrupt files fail here.
 */
export async function probeVideo(file: string, options: { signal?: AbortSignal } = {}): Promise<ProbeResult> {
  let output: FfprobeOutput;
  try {
    // Killed with this process should it die first (lib/parent-death.ts).
    const { stdout } = await run(
      ...dyingWithParent('ffprobe', [
        '-v',
        'error',
        '-print_format',
        'json',
        '-show_format',
        '-show_streams',
        ...probeInputArgs(file),
      ]),
      {
        timeout: 60_000,
        maxBuffer: 4 * 1024 * 1024,
        signal: options.signal,
      },
    );
    output = JSON.parse(stdout) as FfprobeOutput;
  } catch (error) {
    options.signal?.throwIfAborted();
    throw new NotAVideoError('unreadable', { cause: new Error(`ffprobe: ${stderrTail(error)}`) });
  }
  // ffprobe already refused other containers (-format_whitelist); this also gives the demuxer to force later.
  const demuxer = allowedDemuxerOf(output.format?.format_name);
  if (!demuxer)
    throw new NotAVideoError('unreadable', {
      cause: new Error(`ffprobe: container ${output.format?.format_name ?? 'unknown'} is not allowed`),
    });
  const video = output.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic && s.width && s.height);
  if (!video) throw new NotAVideoError('noPicture');
  const duration = Number(output.format?.duration ?? video.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new NotAVideoError('noLength');
  const audio = output.streams?.find((s) => s.codec_type === 'audio');
  return {
    durationSeconds: duration,
    width: video.width!,
    height: video.height!,
    videoCodec: video.codec_name ?? 'unknown',
    audioCodec: audio?.codec_name ?? null,
    formatName: output.format?.format_name ?? 'unknown',
    demuxer,
  };
}
