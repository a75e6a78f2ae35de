/**
 * Where a viewer stopped in a video, and what to do about it when they come back (decision 053). Pure and shared: the
 * server decides `finished` with the same rule the player uses to offer a resume, and the visitor's browser keeps its
 * own small copy (never sent) with the helpers at the end.
 */

/** A position this early is not worth resuming: the viewer barely started. */
export const MIN_RESUME_SECONDS = 5;
/** Within the last 10 s, or the last 5 % of a long video (its credits), counts as watched to the end. */
export const FINISHED_TAIL_SECONDS = 10;
export const FINISHED_TAIL_SHARE = 0.05;
/** How often the player saves while playing; pauses, seeks and leaving the page save at once as well. */
export const PROGRESS_SAVE_INTERVAL_MS = 10_000;
/** The server accepts a position this far past the video's known duration (players overshoot a little at the end). */
export const POSITION_SLACK_SECONDS = 5;
/** The largest position at all (for a video whose duration is not known): 24 hours. */
export const MAX_POSITION_SECONDS = 24 * 60 * 60;
/** A visitor's browser remembers this many videos, the most recent. */
export const LOCAL_PROGRESS_MAX = 200;

/** Whether a position is at (or in the last moments of) a video of that duration. Unknown durations never finish. */
export function isFinished(positionSeconds: number, durationSeconds: number | null | undefined): boolean {
  if (!durationSeconds || !Number.isFinite(durationSeconds) || durationSeconds <= 0) return false;
  const tail = Math.max(FINISHED_TAIL_SECONDS, durationSeconds * FINISHED_TAIL_SHARE);
  return durationSeconds - positionSeconds <= tail;
}

/** Where to resume, or null to start from the beginning (never started, barely started, or watched to the end). */
export function resumePosition(
  saved: { positionSeconds: number; finished: boolean } | null | undefined,
  durationSeconds: number | null | undefined,
): number | null {
  if (!saved || saved.finished || !Number.isFinite(saved.positionSeconds)) return null;
  if (saved.positionSeconds < MIN_RESUME_SECONDS || isFinished(saved.positionSeconds, durationSeconds)) return null;
  return saved.positionSeconds;
}

/** The share of a video watched, 0–1, for the bar on a card; null when the duration is unknown. */
export function watchedShare(positionSeconds: number, finished: boolean, durationSeconds: number | null): number | null {
  if (finished) return 1;
  if (!durationSeconds || durationSeconds <= 0) return null;
  return Math.min(1, Math.max(0, positionSeconds / durationSeconds));
}

// ---------------------------------------------------------------------------------------------- the visitor's copy

/** A visitor's progress: the public id → [position in whole seconds, finished (1) or not (0), saved at (ms)]. */
export type LocalProgress = Record<string, [number, 0 | 1, number]>;

/** Reads the stored JSON, dropping anything malformed (the value is the browser's, so anyone may have edited it). */
export function parseLocalProgress(stored: string | null): LocalProgress {
  if (!stored) return {};
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return {};
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const progress: LocalProgress = {};
  for (const [id, entry] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(entry) || entry.length !== 3) continue;
    const [position, finished, at] = entry as unknown[];
    if (typeof position !== 'number' || !Number.isFinite(position) || position < 0) continue;
    if ((finished !== 0 && finished !== 1) || typeof at !== 'number' || !Number.isFinite(at)) continue;
    progress[id] = [position, finished, at];
  }
  return progress;
}

/** The progress with one video's entry set (now the most recent), keeping only the LOCAL_PROGRESS_MAX most recent. */
export function withLocalProgress(
  progress: LocalProgress,
  streamVideoId: string,
  positionSeconds: number,
  finished: boolean,
  now: number,
  max: number = LOCAL_PROGRESS_MAX,
): LocalProgress {
  const entries = Object.entries({ ...progress, [streamVideoId]: [Math.floor(positionSeconds), finished ? 1 : 0, now] })
    .sort((a, b) => b[1][2] - a[1][2])
    .slice(0, max);
  return Object.fromEntries(entries) as LocalProgress;
}
