import 'server-only';

import type { MetadataRoute } from 'next';

import { POLICIES } from '@/components/policies';
import { getConfig } from '@/lib/config/server';
import { escapeXml } from '@/lib/html';
import { playlistHref } from '@/lib/playlists';
import { CATEGORIES, tagHref } from '@/lib/site';
import { USERNAME_MAX } from '@/lib/validation/auth';
import { TITLE_MAX } from '@/lib/validation/videos';

import { logger } from './log';
import { listPublicPlaylists } from './playlists/public';
import { listPublicTags, listSitemapVideoFiles, listSitemapVideos, type SitemapVideoRow } from './videos/catalog';
import { mediaUrl } from './videos/dto';

/*
 * The sitemap (decision 056): /sitemap.xml is an index of files under /sitemap/{id}.xml (app/sitemap.ts, Next's
 * generateSitemaps): `pages` (home, categories, subscribe, policies), `tags`, `playlists` and `videos-{n}`, one
 * fixed range of videos.seq each. Every public video is in exactly one file; no file is over the protocol's limits.
 */

/** The sitemaps protocol's limits for one file: 50,000 URLs and 50 MiB uncompressed. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

/** Google reads at most 2,048 characters of a video's description. */
const DESCRIPTION_MAX = 2_000;
/** SITE_URL is an origin (lib/config/schema.ts): scheme, a host name of at most 253 characters, a port. */
const ORIGIN_MAX_BYTES = 'https://'.length + 253 + ':65535'.length;

/**
 * The most one video's entry can take in the XML: the markup and numbers (under 1 KiB), four URLs (page,
 * thumbnail, MP4, player), and title, description and uploader at 6 bytes a character at worst (`"` is
 * `&quot;`; an emoji is 4 bytes for one character).
 */
export const VIDEO_ENTRY_MAX_BYTES = 1_024 + 4 * (ORIGIN_MAX_BYTES + 64) + 6 * (TITLE_MAX + DESCRIPTION_MAX + USERNAME_MAX);

/** Videos per file: as many as fit the byte limit at worst (about 3,300), rounded down. */
export const VIDEOS_PER_FILE = 3_000;

const VIDEO_FILE = /^videos-(0|[1-9][0-9]{0,9})$/;

/** The files of the index, in its order; at least `pages`, which needs no database. */
export async function sitemapIds(perFile = VIDEOS_PER_FILE): Promise<string[]> {
  try {
    const [tags, playlists, files] = await Promise.all([
      listPublicTags(1),
      listPublicPlaylists(1),
      listSitemapVideoFiles(perFile),
    ]);
    // A file with no URL is not a valid urlset: the index names only those with something in them.
    return [
      'pages',
      ...(tags.length ? ['tags'] : []),
      ...(playlists.length ? ['playlists'] : []),
      ...files.map((n) => `videos-${n}`),
    ];
  } catch (error) {
    // The fixed pages are still worth serving.
    logger('sitemap').error({ err: error }, 'could not list the sitemap files');
    return ['pages'];
  }
}

/** /sitemap.xml: the index, one <sitemap> per file. */
export async function sitemapIndexXml(perFile = VIDEOS_PER_FILE): Promise<string> {
  const { siteUrl } = getConfig();
  const files = (await sitemapIds(perFile)).map(
    (id) => `<sitemap><loc>${escapeXml(`${siteUrl}/sitemap/${id}.xml`)}</loc></sitemap>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...files,
    '</sitemapindex>',
    '',
  ].join('\n');
}

/** The URLs of one file (an unknown id has none: Next answers 404 for ids sitemapIds does not list). */
export async function sitemapFile(id: string, perFile = VIDEOS_PER_FILE): Promise<MetadataRoute.Sitemap> {
  if (id === 'pages') return fixedPages();
  if (id === 'tags') return (await listPublicTags(SITEMAP_MAX_URLS)).map(({ tag }) => page(tagHref(tag), 'daily', 0.5));
  if (id === 'playlists')
    return (await listPublicPlaylists(SITEMAP_MAX_URLS)).map((playlist) =>
      page(playlistHref(playlist.publicId), 'daily', 0.4, playlist.updatedAt),
    );
  const file = VIDEO_FILE.exec(id);
  if (!file) return [];
  return (await listSitemapVideos(Number(file[1]), perFile)).map(videoEntry);
}

type Frequency = 'hourly' | 'daily' | 'weekly' | 'monthly';

function page(path: string, changeFrequency: Frequency, priority: number, lastModified?: string) {
  return { url: `${getConfig().siteUrl}${path}`, changeFrequency, priority, ...(lastModified ? { lastModified } : {}) };
}

/** Home, the categories, subscribe and the policies: the pages every site has, whatever its catalogue. */
function fixedPages(): MetadataRoute.Sitemap {
  return [
    page('/', 'hourly', 1),
    ...CATEGORIES.map((category) => page(`/category/${category}`, 'hourly', 0.8)),
    page('/subscribe', 'monthly', 0.5),
    ...Object.entries(POLICIES).map(([slug, policy]) => page(`/${slug}`, 'monthly', 0.3, policy.lastUpdated)),
  ];
}

/** At most `max` characters (code points, so an emoji is never cut in half). */
const cut = (text: string, max: number) => Array.from(text).slice(0, max).join('');

/** Next writes video fields into the XML as they are: every text here is escaped (NUL and the like dropped). */
function videoEntry(row: SitemapVideoRow): MetadataRoute.Sitemap[number] {
  const { siteUrl } = getConfig();
  const id = row.stream_video_id;
  const published = new Date(row.published_at ?? row.created_at).toISOString();
  const title = escapeXml(cut(row.title, TITLE_MAX));
  return {
    url: `${siteUrl}/video/${id}`,
    lastModified: published,
    changeFrequency: 'weekly',
    priority: 0.6,
    videos: [
      {
        title,
        description: row.description ? escapeXml(cut(row.description, DESCRIPTION_MAX)) : title,
        thumbnail_loc: row.thumbnail_key ? `${siteUrl}${mediaUrl(id, 'thumbnail.jpg')}` : `${siteUrl}/logo-512.png`,
        content_loc: row.web_mp4_key ? `${siteUrl}${mediaUrl(id, 'web.mp4')}` : undefined,
        player_loc: `${siteUrl}/embed/${id}`,
        duration: row.duration_seconds ? Math.max(1, Math.round(row.duration_seconds)) : undefined,
        view_count: row.views || undefined,
        publication_date: published,
        family_friendly: 'no',
        // The name alone: profiles are for members (robots.txt disallows /profile/), so no page of theirs is linked.
        // Next writes `info` when it is truthy, and the text "undefined" when the key is missing.
        uploader: { content: escapeXml(cut(row.owner_username, USERNAME_MAX)), info: '' },
      },
    ],
  };
}
