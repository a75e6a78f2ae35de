import type { Metadata } from 'next';
import { connection } from 'next/server';

import { pageMetadata } from '@/lib/seo/metadata';

import { LikedVideosFeed } from './LikedVideosFeed';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Liked videos',
    description: 'The videos you liked, newest like first.',
    path: '/liked-videos',
    noindex: true,
  });
}

/**
 * /liked-videos (login required: proxy.ts sends visitors without a session
 * to /login?next=/liked-videos). The shell is static; the list is a client
 * island that waits for the session and pages through the API.
 */
export default async function LikedVideosPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008); only public pages are prerendered and cached.
  await connection();
  return (
    <>
      <WebSiteStructuredData path="/liked-videos" name="Liked videos" />
      <header className="page-header">
        <span className="eyebrow">Your library</span>
        <h1>Liked videos</h1>
        <p>Everything you gave a heart, newest like first.</p>
      </header>
      <section className="section" aria-label="Liked videos">
        <LikedVideosFeed />
      </section>
    </>
  );
}
