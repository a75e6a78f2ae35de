import type { NextRequest } from 'next/server';

import { resolveActor } from '@/lib/server/auth/session';
import { serveStoredFile } from '@/lib/server/media/serve';
import { mediaKeys } from '@/lib/server/storage';
import { findViewableVideo } from '@/lib/server/videos/access';

type Context = { params: Promise<{ streamVideoId: string; file: string[] }> };

/** The files a video has: its web MP4, thumbnail and HLS playlists and segments. Anything else is a 404. */
const MEDIA_FILE = /^(web\.mp4|thumbnail\.jpg|hls\/master\.m3u8|hls\/[0-9]{3,4}p\/(index\.m3u8|[a-z0-9_]{1,40}\.(ts|m4s|mp4)))$/;

const notFound = () => new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });

// GET/HEAD /media/videos/{streamVideoId}/{file} — public videos' media for anyone; unpublished ones for their owner and admins.
async function handle(request: NextRequest, { params }: Context): Promise<Response> {
  const { streamVideoId, file } = await params;
  const relative = file.join('/');
  if (!MEDIA_FILE.test(relative)) return notFound();
  const found = await findViewableVideo(() => resolveActor(request), streamVideoId);
  if (!found) return notFound();
  // Public media may sit in shared caches for an hour (a removed video leaves them within that time);
  // previews of unpublished videos are private to the browser.
  const cacheControl = found.isPublic ? 'public, max-age=3600' : 'private, max-age=300';
  return serveStoredFile(request, `${mediaKeys.videoPrefix(found.row.id)}/${relative}`, cacheControl);
}

export const GET = handle;
export const HEAD = handle;
