import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { pageMetadata } from '@/lib/seo/metadata';

import { WatchLaterFeed } from './WatchLaterFeed';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Watch later',
    description: 'The videos you saved to watch later, newest first.',
    path: '/watch-later',
    noindex: true,
  });
}

/**
 * /watch-later (login required: proxy.ts sends visitors without a session
 * to /login?next=/watch-later), laid out as /liked-videos: a static shell and
 * a client island that waits for the session and pages through the API.
 */
export default async function WatchLaterPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  return (
    <>
      <WebSiteStructuredData path="/watch-later" name="Watch later" />
      <header className="page-header">
        <span className="eyebrow">Your library</span>
        <h1>Watch later</h1>
        <p>
          Videos you saved for later, newest first. Lists of your own are in <a href="/playlists">your playlists</a>.
        </p>
      </header>
      <section className="section" aria-label="Watch later">
        <WatchLaterFeed />
      </section>
    </>
  );
}
