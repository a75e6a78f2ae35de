import type { MetadataRoute } from 'next';

import { POLICIES } from '@/components/policies';
import { getConfig } from '@/lib/config/server';
import { CATEGORIES } from '@/lib/site';

/** Public, indexable pages. Videos join this list when they exist (videos issue). */
export default function sitemap(): MetadataRoute.Sitemap {
  const { siteUrl } = getConfig();
  const page = (path: string, changeFrequency: 'hourly' | 'daily' | 'monthly', priority: number, lastModified?: string) => ({
    url: `${siteUrl}${path}`,
    changeFrequency,
    priority,
    ...(lastModified ? { lastModified } : {}),
  });
  return [
    page('/', 'hourly', 1),
    ...CATEGORIES.map((category) => page(`/category/${category}`, 'hourly', 0.8)),
    page('/subscribe', 'monthly', 0.5),
    ...Object.entries(POLICIES).map(([slug, policy]) => page(`/${slug}`, 'monthly', 0.3, policy.lastUpdated)),
  ];
}
