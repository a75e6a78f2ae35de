import type { Metadata } from 'next';
import { connection } from 'next/server';

import { MyPlaylists } from '@/components/playlists/MyPlaylists';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Your playlists',
    description: 'Your playlists: make, rename, share or delete them.',
    path: '/playlists',
    noindex: true,
  });
}

/**
 * /playlists (login required: proxy.ts sends visitors without a session to /login?next=/playlists), laid out as
 * /watch-later: a static shell and a client island that waits for the session and asks the API.
 */
export default async function PlaylistsPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  return (
    <>
      <WebSiteStructuredData path="/playlists" name="Your playlists" />
      <header className="page-header">
        <span className="eyebrow">Your library</span>
        <h1>Playlists</h1>
        <p>Private ones are yours alone; unlisted ones are seen by whoever has the link; public ones by everyone.</p>
      </header>
      <section className="section" aria-label="Your playlists">
        <MyPlaylists />
      </section>
    </>
  );
}
