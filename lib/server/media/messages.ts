/**
 * What uploaders are told about their media. Fixed texts only: ffmpeg's
 * and the file system's own messages name paths on the server, so they go
 * to the job's last_error (admins) and never into an answer to a member.
 */

/** Why an upload is not a video we take (415 at upload; the same text if processing refuses it later). */
export const NOT_A_VIDEO_MESSAGES = {
  unreadable: 'This file is not a video we can read. It may be damaged or incomplete; try exporting it again as MP4, MOV, WebM or MKV.',
  noPicture: 'This file has no video picture in it. Please upload a video file.',
  noLength: 'This video has no length we can read. It may be damaged or incomplete.',
} as const;

export type NotAVideoReason = keyof typeof NOT_A_VIDEO_MESSAGES;
