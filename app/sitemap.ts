import type { MetadataRoute } from 'next';

import { POLICIES } from '@/components/policies';
import { getConfig } from '@/lib/config/server';
import { escapeHtml } from '@/lib/html';
import { logger } from '@/lib/server/log';
import { playlistHref } from '@/lib/playlists';
import { listPublicPlaylists } from '@/lib/server/playlists/public';
import { listPublicTags, listPublicVideoRows } from '@/lib/server/videos/catalog';
import { toVideoDto } from '@/lib/server/videos/dto';
import { CATEGORIES, tagHref } from '@/lib/site';

// Lists videos from the database, so it renders per request (the build never opens the database).
export const dynamic = 'force-dynamic';

/** One sitemap holds at most 50,000 URLs; the newest public videos fill what the fixed pages and tags leave. */
export const SITEMAP_VIDEO_LIMIT = 45_000;
/** Tag pages, those with the most public videos first. */
export const SITEMAP_TAG_LIMIT = 4_000;
/** Public playlists with a public video, last changed first. */
export const SITEMAP_PLAYLIST_LIMIT = 1_000;

/** Next writes video fields into the XML as they are; user text must be escaped here. */
const xml = (text: string) => escapeHtml(text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, ''));

/** Public, indexable pages, and every public video with a Google video-sitemap entry. */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const { siteUrl } = getConfig();
  const page = (path: string, changeFrequency: 'hourly' | 'daily' | 'monthly', priority: number, lastModified?: string) => ({
    url: `${siteUrl}${path}`,
    changeFrequency,
    priority,
    ...(lastModified ? { lastModified } : {}),
  });
  let videos: MetadataRoute.Sitemap = [];
  let tags: MetadataRoute.Sitemap = [];
  let playlists: MetadataRoute.Sitemap = [];
  try {
    tags = (await listPublicTags(SITEMAP_TAG_LIMIT)).map(({ tag }) => page(tagHref(tag), 'daily', 0.5));
    playlists = (await listPublicPlaylists(SITEMAP_PLAYLIST_LIMIT)).map((playlist) =>
      page(playlistHref(playlist.publicId), 'daily', 0.4, playlist.updatedAt),
    );
    const rows = await listPublicVideoRows(SITEMAP_VIDEO_LIMIT);
    videos = rows.map((row) => {
      const video = toVideoDto(row);
      return {
        url: `${siteUrl}/video/${video.streamVideoId}`,
        lastModified: video.createdAt,
        changeFrequency: 'weekly' as const,
        priority: 0.6,
        videos: [
          {
            title: xml(video.title),
            description: xml(video.description.slice(0, 2000) || video.title),
            thumbnail_loc: video.thumbnailUrl ? `${siteUrl}${video.thumbnailUrl}` : `${siteUrl}/logo-512.png`,
            content_loc: row.web_mp4_key ? `${siteUrl}/media/videos/${video.streamVideoId}/web.mp4` : undefined,
            player_loc: `${siteUrl}/embed/${video.streamVideoId}`,
            duration: video.durationSeconds ? Math.max(1, Math.round(video.durationSeconds)) : undefined,
            view_count: video.views || undefined,
            publication_date: video.createdAt,
            family_friendly: 'no' as const,
            uploader: {
              content: xml(video.uploader.username),
              info: `${siteUrl}/profile/${encodeURIComponent(video.uploader.username)}`,
            },
          },
        ],
      };
    });
  } catch (error) {
    // The fixed pages are still worth serving.
    logger('sitemap').error({ err: error }, 'could not list videos');
  }
  return [
    page('/', 'hourly', 1),
    ...CATEGORIES.map((category) => page(`/category/${category}`, 'hourly', 0.8)),
    ...tags,
    ...playlists,
    page('/subscribe', 'monthly', 0.5),
    ...Object.entries(POLICIES).map(([slug, policy]) => page(`/${slug}`, 'monthly', 0.3, policy.lastUpdated)),
    ...videos,
  ];
}
