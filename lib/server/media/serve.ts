import 'server-only';

import { Readable } from 'node:stream';

import { contentTypeFor, getMediaStorage, type ByteRange } from '../storage';

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
 * and the caller's cache policy.
 */
export async function serveStoredFile(request: Request, key: string, cacheControl: string): Promise<Response> {
  const storage = getMediaStorage();
  const stored = await storage.stat(key);
  if (!stored) return new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });
  const etag = `"${stored.size.toString(36)}-${stored.modified.getTime().toString(36)}"`;
  const headers = new Headers({
    'Content-Type': contentTypeFor(key),
    'Accept-Ranges': 'bytes',
    'Cache-Control': cacheControl,
    ETag: etag,
    'Last-Modified': stored.modified.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
    // Media may be embedded by our own pages and players only.
    'Cross-Origin-Resource-Policy': 'same-site',
  });
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
