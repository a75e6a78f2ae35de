import type { MetadataRoute } from 'next';

import { sitemapFile, sitemapIds } from '@/lib/server/sitemap';

// Lists videos from the database, so it renders per request (the build never opens the database).
export const dynamic = 'force-dynamic';

/** The files /sitemap.xml (app/sitemap-index.xml/route.ts, rewritten from /sitemap.xml in next.config.ts) indexes, each at /sitemap/{id}.xml. */
export async function generateSitemaps(): Promise<{ id: string }[]> {
  return (await sitemapIds()).map((id) => ({ id }));
}

/** One file of the sitemap: the fixed pages, the tags, the playlists or one range of videos (lib/server/sitemap.ts). */
export default async function sitemap({ id }: { id: Promise<string> }): Promise<MetadataRoute.Sitemap> {
  return sitemapFile(await id);
}
