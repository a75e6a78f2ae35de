import type { MetadataRoute } from 'next';

import { sitemapFile, sitemapIds } from '@/lib/server/sitemap';

/** Every entry of every file the sitemap index names, file by file (what a crawler reads from /sitemap.xml). */
export async function sitemapFiles(perFile?: number): Promise<{ id: string; entries: MetadataRoute.Sitemap }[]> {
  const ids = await sitemapIds(perFile);
  return Promise.all(ids.map(async (id) => ({ id, entries: await sitemapFile(id, perFile) })));
}

/** All the sitemap's entries in one list. */
export async function sitemapEntries(perFile?: number): Promise<MetadataRoute.Sitemap> {
  return (await sitemapFiles(perFile)).flatMap((file) => file.entries);
}
