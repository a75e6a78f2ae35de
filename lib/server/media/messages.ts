/**
 * What uploaders are told about their media. Fixed texts only: ffmpeg's
 * and the file system's own messages name paths on the server, so they go
 * to the job's last_error (admins) and never into an answer to a member.
 */

/** Why an upload is not a video we take (415 at upload; the same text if processing refuses it later). */
export const NOT_A_VIDEO_MESSAGES = {
  unreadable:
    'This file is not a video we can read. It may be damaged or incomplete; try exporting it again as MP4, MOV, WebM or MKV.',
  noPicture: 'This file has no video picture in it. Please upload a video file.',
  noLength: 'This video has no length we can read. It may be damaged or incomplete.',
} as const;

export type NotAVideoReason = keyof typeof NOT_A_VIDEO_MESSAGES;

/** Processing failed for any other reason (ffmpeg, storage, the database). */
export const PROCESSING_FAILED_MESSAGE =
  'We could not process this video. Please try exporting it again as MP4 and re-uploading.';

/** The HLS ladder failed for good; the video still plays from its web MP4. */
export const ADAPTIVE_STREAMING_FAILED_MESSAGE =
  'Adaptive streaming could not be prepared for this video. It still plays, in a single quality.';

const UPLOADER_MESSAGES: ReadonlySet<string> = new Set([
  ...Object.values(NOT_A_VIDEO_MESSAGES),
  PROCESSING_FAILED_MESSAGE,
  ADAPTIVE_STREAMING_FAILED_MESSAGE,
]);

/**
 * The processing error as it may leave the server: one of the fixed texts
 * above as stored, anything else (rows written before this rule, which
 * hold raw ffmpeg output) as the generic processing failure.
 */
export function uploaderProcessingError(stored: string | null): string | null {
  if (stored === null) return null;
  return UPLOADER_MESSAGES.has(stored) ? stored : PROCESSING_FAILED_MESSAGE;
}
