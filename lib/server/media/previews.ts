import 'server-only';

import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { previewFileName } from '@/lib/media/previews';

import { FFMPEG_QUIET, runFfmpeg } from './ffmpeg';
import { ffmpegInputArgs } from './input';
import type { ProbeResult } from './probe';

/**
 * How the storyboard samples a video: a frame every `interval` seconds (2 s, or longer so that no video
 * has more than 100), each scaled to a tile whose long side is 160 px, laid out in rows of up to 10 in
 * one JPEG. One sheet keeps a seek bar's hover to one request; 100 tiles of 160 × 90 is 1600 × 900.
 */
export interface StoryboardPlan {
  interval: number;
  count: number;
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
}

const MAX_TILES = 100;
const MIN_INTERVAL_SECONDS = 2;
const TILE_LONG_SIDE = 160;
const COLUMNS = 10;

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

export function storyboardPlan(probe: Pick<ProbeResult, 'durationSeconds' | 'width' | 'height'>): StoryboardPlan {
  const duration = Math.max(probe.durationSeconds, 0.1);
  // Millisecond steps, so the fps filter and the WebVTT cues use the very same instants.
  const interval = Math.max(MIN_INTERVAL_SECONDS, Math.ceil((duration / MAX_TILES) * 1000) / 1000);
  const count = Math.min(MAX_TILES, Math.max(1, Math.ceil(duration / interval)));
  const columns = Math.min(COLUMNS, count);
  const landscape = probe.width >= probe.height;
  const ratio = probe.width > 0 && probe.height > 0 ? probe.width / probe.height : 16 / 9;
  return {
    interval,
    count,
    columns,
    rows: Math.ceil(count / columns),
    tileWidth: landscape ? TILE_LONG_SIDE : even(TILE_LONG_SIDE * ratio),
    tileHeight: landscape ? even(TILE_LONG_SIDE / ratio) : TILE_LONG_SIDE,
  };
}

/** Where the preview clip samples the video: five 1.2 s moments spread from 10 % to 82 %, or the first 6 s of a short one. */
export function previewWindows(durationSeconds: number): { start: number; end: number }[] {
  const length = 1.2;
  if (durationSeconds < 12) return [{ start: 0, end: Math.min(durationSeconds, 6) }];
  return [0.1, 0.28, 0.46, 0.64, 0.82].map((at) => {
    const start = Math.round(durationSeconds * at * 1000) / 1000;
    return { start, end: Math.round((start + length) * 1000) / 1000 };
  });
}

/** The clip fits a 426 × 240 box (240p), at 24 frames a second: a few hundred KB for 6 s. */
const CLIP_BOX = { width: 426, height: 240 };
const CLIP_FPS = 24;

/**
 * Filter graph chains that read `[input]` (a copy of the decoded video) and end in `[storyboard]` and
 * `[preview]`. Added to the HLS ladder's own graph, they cost no decoding of their own: the fps filter
 * takes one frame per interval and select keeps only the sampled moments, before anything is scaled.
 */
export function previewFilterChains(
  inputs: [string, string],
  probe: Pick<ProbeResult, 'durationSeconds' | 'width' | 'height'>,
): string[] {
  const plan = storyboardPlan(probe);
  const moments = previewWindows(probe.durationSeconds)
    .map(({ start, end }) => `between(t\\,${start}\\,${end})`)
    .join('+');
  return [
    `[${inputs[0]}]fps=1/${plan.interval}:round=near,scale=${plan.tileWidth}:${plan.tileHeight},tile=${plan.columns}x${plan.rows}[storyboard]`,
    `[${inputs[1]}]fps=${CLIP_FPS},select='${moments}',setpts=N/${CLIP_FPS}/TB,` +
      `scale=w=${CLIP_BOX.width}:h=${CLIP_BOX.height}:force_original_aspect_ratio=decrease:force_divisible_by=2,format=yuv420p[preview]`,
  ];
}

/** The two outputs after the graph: the sprite (one JPEG) and the clip (silent H.264, index first, so it plays while loading). */
export function previewOutputArgs(dir: string): string[] {
  return [
    '-map',
    '[storyboard]',
    '-frames:v',
    '1',
    '-q:v',
    '5',
    '-update',
    '1',
    path.join(dir, 'storyboard.jpg'),
    '-map',
    '[preview]',
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'main',
    '-crf',
    '30',
    '-movflags',
    '+faststart',
    path.join(dir, 'preview.mp4'),
  ];
}

const vttTime = (seconds: number) => {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

/**
 * The thumbnails track: a cue per tile, its text the sprite's name (relative, so it resolves against the
 * track's own URL) with the tile's rectangle as a media fragment, the form media-chrome and Video.js read.
 */
export function storyboardVtt(plan: StoryboardPlan, durationSeconds: number, spriteName: string): string {
  const cues: string[] = [];
  for (let i = 0; i < plan.count; i += 1) {
    const start = i * plan.interval;
    const end = i === plan.count - 1 ? Math.max(durationSeconds, start + 0.001) : (i + 1) * plan.interval;
    const x = (i % plan.columns) * plan.tileWidth;
    const y = Math.floor(i / plan.columns) * plan.tileHeight;
    cues.push(`${vttTime(start)} --> ${vttTime(end)}\n${spriteName}#xywh=${x},${y},${plan.tileWidth},${plan.tileHeight}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/**
 * After ffmpeg wrote the sprite and the clip into dir: their version (a hash of both) and the WebVTT
 * naming the versioned sprite. Returns the version; dir then holds the three PREVIEW_FILES.
 */
export async function finishPreviews(
  dir: string,
  probe: Pick<ProbeResult, 'durationSeconds' | 'width' | 'height'>,
): Promise<string> {
  const hash = createHash('sha256');
  for (const file of ['storyboard.jpg', 'preview.mp4']) hash.update(await readFile(path.join(dir, file)));
  const version = hash.digest('hex').slice(0, 16);
  const vtt = storyboardVtt(storyboardPlan(probe), probe.durationSeconds, previewFileName('storyboard.jpg', version));
  await writeFile(path.join(dir, 'storyboard.vtt'), vtt);
  return version;
}

/**
 * The previews alone, from a playable file (the backfill reads the web MP4): one decode, split to the
 * same chains as the ladder's. Into dir (replaced); returns the version.
 */
export async function makePreviews(
  source: string,
  dir: string,
  probe: ProbeResult,
  options: { signal?: AbortSignal } = {},
): Promise<string> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const args = [
    ...FFMPEG_QUIET,
    ...ffmpegInputArgs(source, probe.demuxer),
    '-filter_complex',
    ['[0:v:0]split=2[p0][p1]', ...previewFilterChains(['p0', 'p1'], probe)].join(';'),
    ...previewOutputArgs(dir),
  ];
  await runFfmpeg(args, 'ffmpeg (previews)', { timeoutMs: 2 * 60 * 60 * 1000, signal: options.signal });
  return finishPreviews(dir, probe);
}
