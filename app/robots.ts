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
          '/settings',
          '/notifications',
          '/profile/',
        ],
      },
    ],
    // The sitemap index (app/sitemap-index.xml/route.ts); no Host: that directive takes a bare host name, only Yandex read it,
    // and the canonical links already name the origin.
    sitemap: `${siteUrl}/sitemap.xml`,
  };
}
