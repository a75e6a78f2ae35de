import 'server-only';

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

import { getConfig, type MediaOffload } from '@/lib/config/server';

import { avatarDir } from '../accounts/photos';
import { contentTypeFor, getMediaStorage, type ByteRange } from '../storage';

/**
 * How a media answer may be cached and who may embed it: public videos' media for any site (a thumbnail in
 * another site's page, the MP4 or HLS in another player), everything else (unpublished videos' previews for
 * their owner and admins, profile photos) for our own pages only.
 */
export interface MediaPolicy {
  cacheControl: string;
  crossOrigin: boolean;
}

/**
 * Public media under a fixed name (web MP4, JPEG thumbnail, HLS) may sit in shared caches for an hour:
 * a removed video leaves them within that time.
 */
export const PUBLIC_MEDIA: MediaPolicy = { cacheControl: 'public, max-age=3600', crossOrigin: true };
/**
 * Public media under a content-addressed name (the thumbnail's WebP widths, decision 027): browsers keep
 * them for a year without asking again; shared caches (s-maxage) for an hour, like the rest, so a video
 * hidden by moderation leaves them as fast as it leaves the fixed names.
 */
export const PUBLIC_VERSIONED_MEDIA: MediaPolicy = {
  cacheControl: 'public, max-age=31536000, s-maxage=3600, immutable',
  crossOrigin: true,
};
/** Previews of unpublished videos, for their owner and admins: never in a shared cache. */
export const PRIVATE_MEDIA: MediaPolicy = { cacheControl: 'private, max-age=300', crossOrigin: false };

/** Headers every media answer carries, whoever sends the bytes. */
function mediaHeaders(key: string, policy: MediaPolicy): Headers {
  return new Headers({
    'Content-Type': contentTypeFor(key),
    'Cache-Control': policy.cacheControl,
    'X-Content-Type-Options': 'nosniff',
    // nginx copies this one onto the files it sends (deploy/nginx.conf, the /_media/ location).
    'Cross-Origin-Resource-Policy': policy.crossOrigin ? 'cross-origin' : 'same-site',
  });
}

/**
 * nginx sends the file (MEDIA_OFFLOAD=x-accel): an empty answer naming it under the internal location
 * (deploy/nginx.conf), which nginx serves from disk with ranges and validators. nginx keeps only some of
 * these headers (Content-Type, Cache-Control); the internal location adds the others itself, and copies
 * Cross-Origin-Resource-Policy from this answer.
 */
function accelRedirect(accelPrefix: string, key: string, policy: MediaPolicy): Response {
  const headers = mediaHeaders(key, policy);
  headers.set('X-Accel-Redirect', `${accelPrefix}${key.split('/').map(encodeURIComponent).join('/')}`);
  return new Response(null, { status: 200, headers });
}

/**
 * The answer that hands a stored file to nginx or to the bucket (decision 021), or null when the app
 * sends it itself. The caller has checked access: this answer is as good as the file.
 */
export async function offloadedMedia(
  key: string,
  policy: MediaPolicy,
  offload: MediaOffload = getConfig().mediaOffload,
): Promise<Response | null> {
  if (offload.mode === 'x-accel') return accelRedirect(offload.accelPrefix, key, policy);
  if (offload.mode !== 'redirect') return null;
  // Playlists stay here: players resolve their relative segment URIs against the URL they finally read,
  // which on the bucket would be unsigned. They are a few hundred bytes; the segments go to the bucket.
  // The storyboard's WebVTT names its sprite relatively in the same way.
  if (key.endsWith('.m3u8') || key.endsWith('.vtt')) return null;
  const storage = getMediaStorage();
  if (!storage.presignedGetUrl) return null;
  // The bucket's answer carries the bucket's headers: CORP there is the bucket's configuration (docs/operations.md).
  const location = await storage.presignedGetUrl(key, offload.redirectSeconds, policy.cacheControl);
  // The URL works for anyone until it expires: no cache keeps the redirect for another visitor.
  return new Response(null, { status: 302, headers: { Location: location, 'Cache-Control': 'private, no-store' } });
}

/** Profile photos: names are server-generated and never reused, so they may be cached for a year. */
const AVATAR_MEDIA: MediaPolicy = { cacheControl: 'public, max-age=31536000, immutable', crossOrigin: false };

/** GET /media/avatars/{file}: from DATA_DIR/media/avatars (by nginx with MEDIA_OFFLOAD=x-accel); a 404 for anything else. */
export async function serveAvatar(file: string): Promise<Response> {
  if (!/^[0-9a-f]{24}-(64|256)\.webp$/.test(file)) return new Response('Not found', { status: 404 });
  const offload = getConfig().mediaOffload;
  // Photos live on the local disk whatever the video storage, so only nginx can take them over.
  if (offload.mode === 'x-accel') return accelRedirect(offload.accelPrefix, `avatars/${file}`, AVATAR_MEDIA);
  try {
    const body = await readFile(path.join(avatarDir(), file));
    return new Response(body, { headers: mediaHeaders(file, AVATAR_MEDIA) });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}

/**
 * Parses a single-range `Range: bytes=…` header against a file size.
 * Returns null for no (or an ignorable) header, 'unsatisfiable' for a range
 * outside the file. Multi-range requests are answered with the whole file,
 * which RFC 9110 allows and players never need.
 */
export function parseRange(header: string | null, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from, to] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    // Suffix range: the last N bytes.
    const length = Number(to);
    if (length === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * Answers a GET or HEAD for a stored media file: byte ranges (206) for
 * seeking, ETag and Last-Modified validators (304), the right content type
 * and the caller's policy; or hands it to nginx or the bucket
 * (offloadedMedia) when MEDIA_OFFLOAD says so.
 */
export async function serveStoredFile(request: Request, key: string, policy: MediaPolicy): Promise<Response> {
  const offloaded = await offloadedMedia(key, policy);
  if (offloaded) return offloaded;
  const storage = getMediaStorage();
  const stored = await storage.stat(key);
  if (!stored) return new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });
  const etag = `"${stored.size.toString(36)}-${stored.modified.getTime().toString(36)}"`;
  const headers = mediaHeaders(key, policy);
  headers.set('Accept-Ranges', 'bytes');
  headers.set('ETag', etag);
  headers.set('Last-Modified', stored.modified.toUTCString());
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });

  const ifRange = request.headers.get('if-range');
  const range = !ifRange || ifRange === etag ? parseRange(request.headers.get('range'), stored.size) : null;
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${stored.size}`);
    return new Response('Range not satisfiable', { status: 416, headers });
  }
  const length = range ? range.end - range.start + 1 : stored.size;
  headers.set('Content-Length', String(length));
  if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${stored.size}`);
  const status = range ? 206 : 200;
  if (request.method === 'HEAD') return new Response(null, { status, headers });
  const body = await storage.read(key, range ?? undefined);
  return new Response(Readable.toWeb(body) as ReadableStream, { status, headers });
}

/** Answers a GET or HEAD for media kept as text in the database (captions): its version is its ETag. */
export function serveText(request: Request, name: string, text: string, version: string, policy: MediaPolicy): Response {
  const headers = mediaHeaders(name, policy);
  const etag = `"${version}"`;
  headers.set('ETag', etag);
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const body = new TextEncoder().encode(text);
  headers.set('Content-Length', String(body.byteLength));
  return new Response(request.method === 'HEAD' ? null : body, { headers });
}
