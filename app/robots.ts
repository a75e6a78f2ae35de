import type { MetadataRoute } from 'next';

import { getConfig } from '@/lib/config/server';

export default function robots(): MetadataRoute.Robots {
  const { siteUrl } = getConfig();
  return {
    rules: [
      {
        userAgent: '*',
        allow: '/',
        disallow: [
          '/api/',
          '/upload',
          '/admin',
          '/liked-videos',
          '/watch-later',
          '/history',
          '/playlists',
          '/following',
          '/profile/',
        ],
      },
    ],
    sitemap: `${siteUrl}/sitemap.xml`,
    host: siteUrl,
  };
}
