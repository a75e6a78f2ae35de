import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { pageMetadata } from '@/lib/seo/metadata';

import { HistoryFeed } from './HistoryFeed';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'History',
    description: 'The videos you watched, most recent first, and where you stopped.',
    path: '/history',
    noindex: true,
  });
}

/**
 * /history (login required: proxy.ts sends visitors without a session to /login?next=/history), laid out as
 * /watch-later: a static shell and a client island that waits for the session and pages through the API.
 */
export default async function HistoryPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  return (
    <>
      <WebSiteStructuredData path="/history" name="History" />
      <header className="page-header">
        <span className="eyebrow">Your library</span>
        <h1>History</h1>
        <p>
          The videos you watched, most recent first, and where you stopped. Only you see it; the{' '}
          <a href="/privacy-policy#watch-history">Privacy Policy</a> says what is kept.
        </p>
      </header>
      <section className="section" aria-label="History">
        <HistoryFeed />
      </section>
    </>
  );
}
