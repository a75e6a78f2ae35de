import 'server-only';

import path from 'node:path';

/**
 * The containers ffprobe and ffmpeg may read an upload as, by ffmpeg's
 * demuxer name. Each holds its media itself. Left out on purpose: formats
 * that name other files or URLs, which ffmpeg would then open on the
 * server: HLS and DASH playlists, ffconcat lists, image sequences
 * (image2 patterns), and everything else ffmpeg would guess from content.
 * The mov demuxer's external data references (drefs) are off by default.
 * `mpeg` is the MPEG program stream of camcorders and DVDs (.mpg, .vob).
 */
export const ALLOWED_DEMUXERS = ['mov', 'matroska', 'avi', 'mpegts', 'mpeg', 'flv', 'ogg', 'asf'] as const;

export type AllowedDemuxer = (typeof ALLOWED_DEMUXERS)[number];

/**
 * For `-format_whitelist`: ffmpeg accepts a demuxer when any of its names
 * is listed, e.g. `mov` lets in "mov,mp4,m4a,3gp,3g2,mj2" and `matroska`
 * "matroska,webm". It refuses any other, whether probed or forced with -f.
 */
const FORMAT_WHITELIST = ALLOWED_DEMUXERS.join(',');

/**
 * The allowed demuxer a format name reported by ffprobe stands for, or null.
 * ffprobe reports the demuxer's whole name list ("mov,mp4,m4a,3gp,3g2,mj2");
 * its first entry is the short name `-f` takes.
 */
export function allowedDemuxerOf(formatName: string | undefined): AllowedDemuxer | null {
  const name = formatName?.split(',')[0];
  return ALLOWED_DEMUXERS.find((demuxer) => demuxer === name) ?? null;
}

/**
 * An input path as a `file:` URL, so ffmpeg never reads a name as another
 * protocol (a "name:" prefix) and the file protocol is the only one needed.
 */
function fileInput(file: string): string {
  return `file:${path.resolve(file)}`;
}

/** Limits for every read of an upload: allowed containers only, and only the file protocol (no http, data:, subfile…). */
const readLimits = ['-format_whitelist', FORMAT_WHITELIST, '-protocol_whitelist', 'file'];

/** ffprobe's input arguments for an upload that has not been identified yet. */
export function probeInputArgs(file: string): string[] {
  return [...readLimits, fileInput(file)];
}

/**
 * ffmpeg's input arguments (the `-i` part) for a probed upload: the
 * demuxer ffprobe found is forced, so ffmpeg never guesses the format again
 * and a file cannot be read one way when checked and another when encoded.
 */
export function ffmpegInputArgs(file: string, demuxer: AllowedDemuxer): string[] {
  return ['-f', demuxer, ...readLimits, '-i', fileInput(file)];
}
