import 'server-only';

import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

import { FFMPEG_QUIET, runFfmpeg } from './ffmpeg';
import { ffmpegInputArgs } from './input';
import { finishPreviews, previewFilterChains, previewOutputArgs } from './previews';
import type { ProbeResult } from './probe';

/** One rung of the adaptive ladder: an H.264/AAC stream at a height, in its own folder (`name/`). */
export interface Rendition {
  /** Folder and variant name, e.g. `720p`. */
  name: string;
  height: number;
  /** Target video bitrate in kbit/s; peaks are capped at 1.07× with a 1.5× buffer. */
  videoKbps: number;
  audioKbps: number;
}

/** The full ladder; a source gets every rung at or below its height (no upscaling). */
const RUNGS: readonly Omit<Rendition, 'name'>[] = [
  // A phone on a slow connection (1.6 Mbit/s) starts, and seeks, on this one: a 2 s segment is about 120 KB.
  { height: 240, videoKbps: 400, audioKbps: 64 },
  { height: 360, videoKbps: 800, audioKbps: 96 },
  { height: 720, videoKbps: 2800, audioKbps: 128 },
  { height: 1080, videoKbps: 5000, audioKbps: 128 },
];

/**
 * Seconds per segment, and between key frames (so every segment of every rendition starts on one, at the same time).
 * Two, not four: a seek or a start waits for one whole segment, which halves on a slow connection (decision 052).
 */
export const HLS_SEGMENT_SECONDS = 2;
export const HLS_KEYFRAME_SECONDS = 2;
export const HLS_MASTER = 'master.m3u8';

/**
 * The renditions for a source of the given height: 240p, 360p, 720p and
 * 1080p, never above the source. A source below 240 px gets one rendition at
 * its own height (rounded down to even, as H.264 in 4:2:0 needs), with the
 * 240p bitrate scaled by area.
 */
export function ladderFor(sourceHeight: number): Rendition[] {
  if (!Number.isFinite(sourceHeight) || sourceHeight < 2)
    throw new RangeError(`No HLS ladder for a source ${sourceHeight} px high`);
  const rungs = RUNGS.filter((rung) => rung.height <= sourceHeight);
  if (rungs.length > 0) return rungs.map((rung) => ({ name: `${rung.height}p`, ...rung }));
  const height = Math.floor(sourceHeight / 2) * 2;
  const base = RUNGS[0]!;
  const videoKbps = Math.max(150, Math.round((base.videoKbps * (height / base.height) ** 2) / 10) * 10);
  return [{ name: `${height}p`, height, videoKbps, audioKbps: base.audioKbps }];
}

/**
 * The complete ffmpeg argument list (everything after `ffmpeg`) that
 * packages source into outDir: `master.m3u8` plus `{name}/index.m3u8` and
 * `{name}/seg_00000.ts`… per rendition. Exported so a benchmark can run
 * the bare command and compare it with packageHls.
 *
 * One command for the whole ladder: the source is decoded once and split
 * to a scaler per rendition; key frames are forced by time (every 2 s,
 * whatever the frame rate, also for variable frame rates) with scene-cut
 * key frames off, so all renditions cut their 2 s segments at the same
 * instants and players can switch between them at any segment boundary.
 * The source is read only as the container the probe found. With
 * previewsDir, the same decode also feeds the storyboard and the preview
 * clip (lib/server/media/previews.ts), written there.
 */
export function hlsFfmpegArgs(
  source: string,
  outDir: string,
  probe: LadderProbe,
  options: { previewsDir?: string } = {},
): string[] {
  // %v and %05d are ffmpeg patterns; a % in the folder itself would be read as one.
  if (outDir.includes('%')) throw new Error(`HLS output folder must not contain '%': ${outDir}`);
  const renditions = ladderFor(probe.height);
  const audio = probe.audioCodec !== null;
  const previews = options.previewsDir !== undefined;
  const n = renditions.length + (previews ? 2 : 0);
  const filter = [
    `[0:v:0]split=${n}${Array.from({ length: n }, (_, i) => `[s${i}]`).join('')}`,
    ...renditions.map((r, i) => `[s${i}]scale=-2:${r.height},format=yuv420p[v${i}]`),
    ...(previews ? previewFilterChains([`s${n - 2}`, `s${n - 1}`], probe) : []),
  ].join(';');
  const perRendition = renditions.flatMap((r, i) => [
    `-b:v:${i}`,
    `${r.videoKbps}k`,
    `-maxrate:v:${i}`,
    `${Math.round(r.videoKbps * 1.07)}k`,
    `-bufsize:v:${i}`,
    `${Math.round(r.videoKbps * 1.5)}k`,
    ...(audio ? [`-b:a:${i}`, `${r.audioKbps}k`] : []),
  ]);
  const streamMap = renditions.map((r, i) => (audio ? `v:${i},a:${i},name:${r.name}` : `v:${i},name:${r.name}`)).join(' ');
  return [
    ...FFMPEG_QUIET,
    ...ffmpegInputArgs(source, probe.demuxer),
    '-filter_complex',
    filter,
    ...renditions.map((_, i) => ['-map', `[v${i}]`]).flat(),
    // The one audio track, encoded once per rendition so each variant is a self-contained muxed stream.
    ...(audio ? renditions.map(() => ['-map', '0:a:0']).flat() : []),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'high',
    '-sc_threshold',
    '0',
    '-force_key_frames',
    `expr:gte(t,n_forced*${HLS_KEYFRAME_SECONDS})`,
    ...(audio ? ['-c:a', 'aac', '-ac', '2'] : []),
    ...perRendition,
    '-max_muxing_queue_size',
    '1024',
    '-f',
    'hls',
    '-hls_time',
    String(HLS_SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'mpegts',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_filename',
    path.join(outDir, '%v', 'seg_%05d.ts'),
    '-master_pl_name',
    HLS_MASTER,
    '-var_stream_map',
    streamMap,
    path.join(outDir, '%v', 'index.m3u8'),
    ...(options.previewsDir !== undefined ? previewOutputArgs(options.previewsDir) : []),
  ];
}

/** What the ladder needs to know of its source. */
export type LadderProbe = Pick<ProbeResult, 'height' | 'width' | 'durationSeconds' | 'audioCodec' | 'demuxer'>;

export interface HlsPackage {
  renditions: Rendition[];
  heights: number[];
  /** The previews' version when previewsDir was given (its folder then holds the PREVIEW_FILES). */
  previewsVersion: string | null;
}

/**
 * Packages source as an HLS ladder into outDir (replacing what was there).
 * ffmpeg writes into `{outDir}.partial`, which is renamed into place only
 * when complete, so a crash or an abort never leaves half a ladder and a
 * rerun simply does it again. The signal stops ffmpeg (for a job that
 * lost its lease).
 */
export async function packageHls(
  source: string,
  outDir: string,
  probe: LadderProbe,
  options: { signal?: AbortSignal; timeoutMs?: number; previewsDir?: string } = {},
): Promise<HlsPackage> {
  const renditions = ladderFor(probe.height);
  const temp = `${outDir}.partial`;
  const { previewsDir } = options;
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp, { recursive: true });
  if (previewsDir !== undefined) {
    await rm(previewsDir, { recursive: true, force: true });
    await mkdir(previewsDir, { recursive: true });
  }
  try {
    await runFfmpeg(hlsFfmpegArgs(source, temp, probe, { previewsDir }), 'ffmpeg (HLS)', {
      timeoutMs: options.timeoutMs ?? 6 * 60 * 60 * 1000,
      signal: options.signal,
    });
    // ffmpeg writes the master playlist at the very end; check it names every rendition with its attributes.
    const master = await readFile(path.join(temp, HLS_MASTER), 'utf8');
    const variants = master.split('\n').filter((line) => line.startsWith('#EXT-X-STREAM-INF:'));
    if (
      variants.length !== renditions.length ||
      variants.some((line) => !/BANDWIDTH=\d+/.test(line) || !/RESOLUTION=\d+x\d+/.test(line))
    ) {
      throw new Error(`ffmpeg (HLS) wrote an incomplete master playlist (${variants.length} of ${renditions.length} renditions)`);
    }
    await rm(outDir, { recursive: true, force: true });
    await rename(temp, outDir);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  // The previews are an extra: without them (a clip ffmpeg found no frame for) the ladder still stands.
  const previewsVersion = previewsDir !== undefined ? await finishPreviews(previewsDir, probe).catch(() => null) : null;
  return { renditions, heights: renditions.map((r) => r.height), previewsVersion };
}
