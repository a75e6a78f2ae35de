import 'server-only';

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { dyingWithParent } from '@/lib/parent-death';

import { metrics, timed } from '../metrics';

const run = promisify(execFile);

/** The metric label of a run: what it makes, from its description ("ffmpeg (web MP4)" → web_mp4). */
export function outputLabel(what: string): string {
  const inside = /\(([^)]+)\)/.exec(what)?.[1] ?? what;
  return inside
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

/** What every ffmpeg run starts with: no banner or prompt, errors only, and its own outputs overwritten. */
export const FFMPEG_QUIET = ['-hide_banner', '-nostdin', '-v', 'error', '-y'];

export interface FfmpegRunOptions {
  timeoutMs: number;
  /** Kills ffmpeg when aborted (the job lost its lease); the signal's reason is thrown. */
  signal?: AbortSignal;
}

/** The last lines ffmpeg or ffprobe wrote to stderr, or the error's own message. */
export function stderrTail(error: unknown): string {
  const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
  return stderr ? stderr.split('\n').slice(-3).join(' ') : error instanceof Error ? error.message : String(error);
}

/**
 * Runs ffmpeg with the given arguments, killed with this process should it die first (lib/parent-death.ts). A failure's message carries
 * ffmpeg's last stderr lines: detail for the job's last_error, which only
 * admins see. It names server paths, so it never goes to an uploader.
 */
export async function runFfmpeg(args: string[], what: string, options: FfmpegRunOptions): Promise<void> {
  try {
    await timed(metrics().ffmpegSeconds, { output: outputLabel(what) }, () =>
      run(...dyingWithParent('ffmpeg', args), { timeout: options.timeoutMs, maxBuffer: 8 * 1024 * 1024, signal: options.signal }),
    );
  } catch (error) {
    options.signal?.throwIfAborted();
    throw new Error(`${what} failed: ${stderrTail(error)}`);
  }
}
