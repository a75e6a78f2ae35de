import type { NextRequest } from 'next/server';

import { parseCaptionFile } from '@/lib/media/captions';
import { parsePreviewFile } from '@/lib/media/previews';
import { THUMBNAIL_VARIANT_FILE, type ThumbnailWidth } from '@/lib/media/thumbnails';
import { resolveActor } from '@/lib/server/auth/session';
import { PRIVATE_MEDIA, PUBLIC_MEDIA, PUBLIC_VERSIONED_MEDIA, serveStoredFile, serveText } from '@/lib/server/media/serve';
import { mediaKeys } from '@/lib/server/storage';
import { findViewableVideo } from '@/lib/server/videos/access';
import { captionVtt } from '@/lib/server/videos/captions';

type Context = { params: Promise<{ streamVideoId: string; file: string[] }> };

/** The files a video has under fixed names: its web MP4, thumbnail and HLS playlists and segments. */
const MEDIA_FILE = /^(web\.mp4|thumbnail\.jpg|hls\/master\.m3u8|hls\/[0-9]{3,4}p\/(index\.m3u8|[a-z0-9_]{1,40}\.(ts|m4s|mp4)))$/;

const notFound = () => new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });

// GET/HEAD /media/videos/{streamVideoId}/{file} — public videos' media for anyone; unpublished ones for their owner and admins.
async function handle(request: NextRequest, { params }: Context): Promise<Response> {
  const { streamVideoId, file } = await params;
  const relative = file.join('/');
  // Under versioned names (anything else is a 404): the thumbnail's WebP widths, the storyboard, the preview clip and captions.
  const variant = THUMBNAIL_VARIANT_FILE.exec(relative);
  const preview = parsePreviewFile(relative);
  const captions = parseCaptionFile(relative);
  if (!variant && !preview && !captions && !MEDIA_FILE.test(relative)) return notFound();
  const found = await findViewableVideo(() => resolveActor(request), streamVideoId);
  if (!found) return notFound();
  if (captions) {
    // Captions live in the database (decision 051), under their version: any other is a 404.
    const vtt = await captionVtt(found.row.id, captions.language, captions.version);
    if (vtt === null) return notFound();
    return serveText(request, relative, vtt, captions.version, found.isPublic ? PUBLIC_VERSIONED_MEDIA : PRIVATE_MEDIA);
  }
  if (preview) {
    if (found.row.previews_version !== preview.version) return notFound();
    return serveStoredFile(
      request,
      mediaKeys.preview(found.row.id, preview.file),
      found.isPublic ? PUBLIC_VERSIONED_MEDIA : PRIVATE_MEDIA,
    );
  }
  if (!variant)
    return serveStoredFile(
      request,
      `${mediaKeys.videoPrefix(found.row.id)}/${relative}`,
      found.isPublic ? PUBLIC_MEDIA : PRIVATE_MEDIA,
    );
  // A versioned URL names one content: any other version is a 404, never the current bytes under an old name.
  const [, version, width] = variant;
  if (found.row.thumbnail_version !== version) return notFound();
  return serveStoredFile(
    request,
    mediaKeys.thumbnailVariant(found.row.id, Number(width) as ThumbnailWidth),
    found.isPublic ? PUBLIC_VERSIONED_MEDIA : PRIVATE_MEDIA,
  );
}

export const GET = handle;
export const HEAD = handle;
