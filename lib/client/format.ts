/**
 * Wording for the upload page: file sizes, upload progress, and where a video
 * is in processing and review. Pure functions, shared by the upload form and
 * the "Your videos" list.
 */
import type { OwnVideoDto } from '@/lib/api-types';

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/**
 * 1024-based sizes with the short names people expect (the server's 413
 * message uses the same): 512 → "512 B", 12_900_000 → "12.3 MB".
 * `trim` drops a trailing ".0" ("4 GB" for a limit, "80.0 MB" for progress).
 */
export function formatBytes(bytes: number, { trim = false }: { trim?: boolean } = {}): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 B';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  // Round first, so 1023.96 KB reads "1.0 MB", not "1024.0 KB".
  while (Number(value.toFixed(1)) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = value.toFixed(1);
  return `${trim ? text.replace(/\.0$/, '') : text} ${UNITS[unit]}`;
}

/** Whole percent, never 100 before the last byte: 0.999 → 99, 1 → 100; junk → 0. */
export function percentOf(loaded: number, total: number): number {
  if (!Number.isFinite(loaded) || !Number.isFinite(total) || total <= 0 || loaded <= 0) return 0;
  if (loaded >= total) return 100;
  return Math.min(99, Math.floor((loaded / total) * 100));
}

/** "12.3 MB of 80.0 MB · 15%". */
export function progressLabel(loaded: number, total: number): string {
  const sent = Math.min(Math.max(loaded, 0), Math.max(total, 0));
  return `${formatBytes(sent)} of ${formatBytes(total)} · ${percentOf(sent, total)}%`;
}

/** "Connection lost. Retrying in 2 s… (attempt 2 of 3)"; a server error reads differently from a lost connection. */
export function retryLabel({
  secondsLeft,
  attempt,
  maxAttempts,
  serverError,
}: {
  secondsLeft: number;
  attempt: number;
  maxAttempts: number;
  serverError: boolean;
}): string {
  const cause = serverError ? 'The server had a problem.' : 'Connection lost.';
  const when = secondsLeft > 0 ? `Retrying in ${secondsLeft} s…` : 'Retrying…';
  return `${cause} ${when} (attempt ${attempt} of ${maxAttempts})`;
}

export type VideoStatusTone = 'working' | 'waiting' | 'live' | 'bad';

export interface VideoStatusView {
  /** Short badge text for lists. */
  badge: string;
  /** The full sentence for the upload's own status line. */
  text: string;
  tone: VideoStatusTone;
  /** The reason when something went wrong (rejection or processing failure). */
  reason: string | null;
  /** True once processing has finished one way or the other: nothing more to poll for. */
  settled: boolean;
}

type StatusFields = Pick<OwnVideoDto, 'status' | 'moderationStatus' | 'processingError' | 'rejectionReason'>;

/**
 * Processing state and review are separate fields; the member sees one line:
 * a rejection wins (the video will not go live whatever processing does), then
 * a processing failure, then processing, then the review's state.
 */
export function videoStatusView(video: StatusFields): VideoStatusView {
  const settled = video.status === 'ready' || video.status === 'failed';
  if (video.moderationStatus === 'rejected') {
    const reason = video.rejectionReason?.trim() || null;
    return { badge: 'Not approved', text: `Not approved: ${reason ?? 'no reason was given.'}`, tone: 'bad', reason, settled };
  }
  if (video.status === 'failed') {
    const reason = video.processingError?.trim() || null;
    return { badge: 'Processing failed', text: `Processing failed: ${reason ?? 'unknown error.'}`, tone: 'bad', reason, settled };
  }
  if (video.status === 'queued' || video.status === 'processing') {
    return { badge: 'Processing', text: 'Processing…', tone: 'working', reason: null, settled };
  }
  if (video.moderationStatus === 'approved')
    return { badge: 'Live', text: 'Approved — live', tone: 'live', reason: null, settled };
  return { badge: 'Waiting for review', text: 'Ready — waiting for review', tone: 'waiting', reason: null, settled };
}

/** Extensions of video files a browser may not name with a video/* type (or names with none). */
const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|qt|webm|mkv|avi|wmv|asf|flv|mpe?g|mpg|ts|mts|m2ts|3gp|3g2|ogv|vob)$/i;

/**
 * The form's own check of the chosen file, before any byte is sent, in the
 * server's words. Whether it really is a video the server decides by content;
 * here only files that plainly are something else (an image, a PDF) stop.
 */
export function checkVideoFile(file: Pick<File, 'name' | 'size' | 'type'> | null, maxBytes: number): string | null {
  if (!file) return 'Choose a video file to upload.';
  if (file.size === 0) return 'The video file is empty.';
  if (file.size > maxBytes) return `This video is too large. The limit is ${formatBytes(maxBytes, { trim: true })}.`;
  const type = file.type.toLowerCase();
  const plainlyNotVideo = type !== '' && type !== 'application/octet-stream' && !type.startsWith('video/');
  if (plainlyNotVideo && !VIDEO_EXTENSIONS.test(file.name))
    return 'This file is not a video. Choose a video file (MP4, MOV, WebM…).';
  return null;
}
