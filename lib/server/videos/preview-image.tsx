import 'server-only';

import { createHash } from 'node:crypto';

import { ImageResponse } from 'next/og';
import { connection } from 'next/server';

import type { VideoDto } from '@/lib/api-types';
import { getConfig } from '@/lib/config/server';
import { logger } from '@/lib/server/log';
import { getMediaStorage, mediaKeys } from '@/lib/server/storage';
import { absoluteUrl } from '@/lib/seo/metadata';
import type { Category } from '@/lib/site';

import { listCategoryVideos, listTagVideos, listTopVideos } from './catalog';
import { searchVideos } from './search';

const log = logger('previews');

/**
 * Link-preview pictures of the list pages (home, a category, a tag, search results): 1200 × 630, the size
 * Facebook, X, Slack and Discord show whole in a large card, drawn from the thumbnails of the list's first public
 * videos with next/og (Satori and resvg, which Next ships), or a branded card when the list is empty.
 *
 * The picture's URL carries a key made of what it shows (the videos' ids and thumbnail versions, the heading, the
 * site's name, the layout): a page names the current key in og:image, so a changed list is a new URL that caches
 * and scrapers fetch anew, and an answer for the current key may be kept for a year.
 */
export const PREVIEW_IMAGE_SIZE = { width: 1200, height: 630 } as const;
export const PREVIEW_IMAGE_PATH = '/preview-image';
/** Changing the drawing below changes every key, so no cache keeps an old picture. */
const LAYOUT = 1;
const TILES = 6;
/** A 640 px JPEG thumbnail is 30–80 KB; anything far larger is not one of ours and is left out. */
const MAX_THUMBNAIL_BYTES = 1024 * 1024;
/** Rendered pictures kept in this process (each 0.5–1 MB of PNG), most recently used last. */
const MAX_CACHED_BYTES = 32 * 1024 * 1024;

/** A list page: its kind and, but for home, its category, tag or search query. */
export type PreviewList =
  { list: 'home' } | { list: 'category'; name: Category } | { list: 'tag'; name: string } | { list: 'search'; name: string };

interface Preview {
  key: string;
  heading: string;
  alt: string;
  videos: VideoDto[];
}

/** Only public lists: each of these reads the catalogue's PUBLIC condition, so no unpublished thumbnail appears. */
function firstVideos(of: PreviewList): Promise<VideoDto[]> {
  const first = { limit: TILES, page: 1 };
  switch (of.list) {
    case 'home':
      return listTopVideos(TILES);
    case 'category':
      return listCategoryVideos(of.name, first, { sort: 'views' }).then((page) => page.videos);
    case 'tag':
      return listTagVideos(of.name, first, { sort: 'views' }).then((page) => page.videos);
    case 'search':
      return searchVideos(of.name, first).then((page) => page.videos);
  }
}

/**
 * The search query is left out of the picture (and so of its key): the picture is the site's, and a crafted query
 * must not put words in its mouth. A tag's name is shown only above its own videos.
 */
function headingOf(of: PreviewList): string {
  switch (of.list) {
    case 'home':
      return 'Top videos';
    case 'category':
      return `${of.name} videos`;
    case 'tag':
      return `#${of.name} videos`;
    case 'search':
      return 'Search results';
  }
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function altOf(heading: string, siteName: string, videos: VideoDto[]): string {
  if (videos.length === 0) return `${siteName}: ${heading}`;
  const named = videos.slice(0, 3).map((video) => `“${clip(video.title, 60)}”`);
  const more = videos.length > named.length ? ` and ${videos.length - named.length} more` : '';
  return `${heading} on ${siteName}: ${named.join(', ')}${more}`;
}

/** What the list's picture shows now, and its key. A list that cannot be read gets the branded card. */
export async function previewOf(of: PreviewList): Promise<Preview> {
  const { siteName } = getConfig();
  let videos: VideoDto[] = [];
  try {
    videos = (await firstVideos(of)).filter((video) => video.thumbnailUrl !== null).slice(0, TILES);
  } catch (error) {
    log.error({ err: error }, `could not read the ${of.list} list for its preview picture`);
  }
  const heading = of.list === 'tag' && videos.length === 0 ? headingOf({ list: 'home' }) : headingOf(of);
  const key = createHash('sha256')
    .update(JSON.stringify([LAYOUT, siteName, heading, videos.map((video) => [video._id, video.thumbnailVersion])]))
    .digest('hex')
    .slice(0, 16);
  return { key, heading, alt: altOf(heading, siteName, videos), videos };
}

/** The picture's address: the list in the query, with the key that names what it shows. */
export function previewImagePath(of: PreviewList, key: string): string {
  const query = new URLSearchParams({ list: of.list, ...('name' in of ? { name: of.name } : {}), v: key });
  return `${PREVIEW_IMAGE_PATH}?${query.toString()}`;
}

/** og:image for a list page: the picture of what the list shows now, with its size and alt text. */
export async function previewImageOf(of: PreviewList): Promise<{ url: string; width: number; height: number; alt: string }> {
  // The page renders per request: the build never opens the database.
  await connection();
  const preview = await previewOf(of);
  return { url: absoluteUrl(previewImagePath(of, preview.key)), ...PREVIEW_IMAGE_SIZE, alt: preview.alt };
}

// ---------- Drawing ----------

const COLORS = { background: '#0d0c12', card: '#1b1824', text: '#f4f2f8', muted: '#b7b1c6', accent: '#ff8cc3' };
const PADDING = 40;
const HEADER = 70;
const GAP = 16;

async function thumbnailDataUrl(video: VideoDto): Promise<string | null> {
  const storage = getMediaStorage();
  const key = mediaKeys.thumbnail(video._id);
  try {
    const stat = await storage.stat(key);
    if (!stat || stat.size > MAX_THUMBNAIL_BYTES) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
    return `data:image/jpeg;base64,${Buffer.concat(chunks).toString('base64')}`;
  } catch (error) {
    log.warn({ err: error, streamVideoId: video.streamVideoId }, 'a thumbnail could not be read for a preview picture');
    return null;
  }
}

/** Tiles of 16:9 in as many columns as fill the width best: 3 × 2 for six, 2 × 2 for four, one large for one. */
function tileSize(count: number): { width: number; height: number } {
  const columns = count <= 1 ? 1 : count <= 4 ? 2 : 3;
  const rows = Math.ceil(count / columns);
  const areaWidth = PREVIEW_IMAGE_SIZE.width - 2 * PADDING;
  const areaHeight = PREVIEW_IMAGE_SIZE.height - 2 * PADDING - HEADER - GAP;
  const height = Math.floor(
    Math.min((areaHeight - (rows - 1) * GAP) / rows, (((areaWidth - (columns - 1) * GAP) / columns) * 9) / 16),
  );
  return { width: Math.floor((height * 16) / 9), height };
}

function PreviewCard({ siteName, heading, tiles }: { siteName: string; heading: string; tiles: string[] }) {
  const size = tileSize(tiles.length);
  const columns = tiles.length <= 1 ? 1 : tiles.length <= 4 ? 2 : 3;
  return (
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        padding: PADDING,
        background: COLORS.background,
        color: COLORS.text,
      }}
    >
      <div style={{ display: 'flex', height: HEADER, alignItems: 'center', justifyContent: 'space-between' }}>
        <div style={{ display: 'flex', fontSize: 48, color: COLORS.accent }}>{clip(siteName, 28)}</div>
        <div style={{ display: 'flex', fontSize: 36 }}>{clip(heading, 34)}</div>
      </div>
      {tiles.length > 0 ? (
        <div
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: GAP,
            marginTop: GAP,
            justifyContent: 'center',
            width: columns * size.width + (columns - 1) * GAP,
            alignSelf: 'center',
          }}
        >
          {tiles.map((src, index) => (
            // eslint-disable-next-line @next/next/no-img-element, jsx-a11y/alt-text -- drawn by Satori, not a page: the alt text is og:image:alt
            <img key={index} src={src} width={size.width} height={size.height} style={{ objectFit: 'cover', borderRadius: 12 }} />
          ))}
        </div>
      ) : (
        <div
          style={{
            display: 'flex',
            flexDirection: 'column',
            flexGrow: 1,
            marginTop: GAP,
            padding: 56,
            borderRadius: 24,
            justifyContent: 'flex-end',
            backgroundImage: `linear-gradient(135deg, ${COLORS.card} 0%, #3a1d35 60%, #ff4fa3 100%)`,
          }}
        >
          <div style={{ display: 'flex', fontSize: 84, color: COLORS.text }}>{clip(siteName, 24)}</div>
          <div style={{ display: 'flex', fontSize: 34, color: COLORS.muted, marginTop: 16 }}>
            Transformation and exploration videos, by and for adults
          </div>
        </div>
      )}
    </div>
  );
}

const rendered = new Map<string, Promise<Buffer>>();
const sizes = new Map<string, number>();

async function render(preview: Preview): Promise<Buffer> {
  const tiles = (await Promise.all(preview.videos.map(thumbnailDataUrl))).filter((tile): tile is string => tile !== null);
  const image = new ImageResponse(<PreviewCard siteName={getConfig().siteName} heading={preview.heading} tiles={tiles} />, {
    ...PREVIEW_IMAGE_SIZE,
  });
  return Buffer.from(await image.arrayBuffer());
}

/** The PNG of a preview, drawn once per key in this process (concurrent asks share one drawing). */
function pictureOf(preview: Preview): Promise<Buffer> {
  const cached = rendered.get(preview.key);
  if (cached) {
    // Most recently used last, so the oldest is the first one dropped.
    rendered.delete(preview.key);
    rendered.set(preview.key, cached);
    return cached;
  }
  const drawing = render(preview).then(
    (png) => {
      sizes.set(preview.key, png.length);
      let total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
      for (const oldest of rendered.keys()) {
        if (total <= MAX_CACHED_BYTES || oldest === preview.key) break;
        total -= sizes.get(oldest) ?? 0;
        rendered.delete(oldest);
        sizes.delete(oldest);
      }
      return png;
    },
    (error: unknown) => {
      rendered.delete(preview.key);
      throw error;
    },
  );
  rendered.set(preview.key, drawing);
  return drawing;
}

/** A year for the key a page names now; five minutes for an old or missing key, which shows the list as it is now. */
const CURRENT_CACHE = 'public, max-age=31536000, immutable';
const OTHER_CACHE = 'public, max-age=300';

/** GET /preview-image: the list's picture as it is now, with an ETag of its key. */
export async function previewImageResponse(request: Request, of: PreviewList, version: string | undefined): Promise<Response> {
  const preview = await previewOf(of);
  const etag = `"${preview.key}"`;
  const headers = {
    'Cache-Control': version === preview.key ? CURRENT_CACHE : OTHER_CACHE,
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const png = await pictureOf(preview);
  return new Response(new Uint8Array(png), { headers: { ...headers, 'Content-Type': 'image/png' } });
}
