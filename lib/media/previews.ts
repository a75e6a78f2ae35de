/**
 * A video's previews: the seek bar's storyboard (a sprite of small frames and the WebVTT that maps times
 * to its tiles) and the card's preview clip (a few silent seconds sampled across the video). Made by the
 * package-hls job, or the backfill for videos processed before them (lib/server/media/previews.ts), and
 * named by a hash of their bytes so public ones are cached for a year, like the thumbnail's widths.
 * Shared by the server (DTOs, the media route) and the player and cards, so URLs are built in one place.
 */

/** A version: the first 16 hex digits of the SHA-256 of the sprite and the clip. */
export const PREVIEWS_VERSION = /^[0-9a-f]{16}$/;

/** The files, as stored under the video's folder (`videos/{id}/{file}`). */
export const PREVIEW_FILES = ['storyboard.jpg', 'storyboard.vtt', 'preview.mp4'] as const;
export type PreviewFile = (typeof PREVIEW_FILES)[number];

/** A versioned name in a media URL (storyboard-{version}.vtt): the stored file and its version, or null. */
export function parsePreviewFile(name: string): { file: PreviewFile; version: string } | null {
  const match = /^(storyboard|preview)-([0-9a-f]{16})\.(jpg|vtt|mp4)$/.exec(name);
  if (!match) return null;
  const file = `${match[1]}.${match[3]}`;
  return (PREVIEW_FILES as readonly string[]).includes(file) ? { file: file as PreviewFile, version: match[2]! } : null;
}

/** The versioned name of a stored file: storyboard.vtt → storyboard-{version}.vtt. */
export const previewFileName = (file: PreviewFile, version: string) => file.replace('.', `-${version}.`);

const url = (streamVideoId: string, file: PreviewFile, version: string | null) =>
  version !== null && PREVIEWS_VERSION.test(version) ? `/media/videos/${streamVideoId}/${previewFileName(file, version)}` : null;

/** The thumbnails track of the player's seek bar (kind metadata, label thumbnails), or null without previews. */
export const storyboardUrl = (streamVideoId: string, version: string | null) => url(streamVideoId, 'storyboard.vtt', version);

/** The card's hover preview, or null without previews. */
export const previewClipUrl = (streamVideoId: string, version: string | null) => url(streamVideoId, 'preview.mp4', version);
