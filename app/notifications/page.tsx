import type { Metadata } from 'next';
import { connection } from 'next/server';

import { NotificationsFeed } from '@/components/community/NotificationsFeed';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { ACCOUNT_PATHS } from '@/lib/account-paths';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Notifications',
    description: 'Follows, likes, comments and news about your uploads, newest first.',
    path: ACCOUNT_PATHS.notifications,
    noindex: true,
  });
}

/**
 * /notifications (login required: proxy.ts sends visitors to /login?next=/notifications): the bell's panel as a
 * page that emails and docs can link to. The island asks the API, which checks the caller.
 */
export default async function NotificationsPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  return (
    <>
      <WebSiteStructuredData path={ACCOUNT_PATHS.notifications} name="Notifications" />
      <header className="page-header">
        <span className="eyebrow">Your account</span>
        <h1>Notifications</h1>
        <p>
          Follows, likes, comments and news about your uploads, newest first. Your account is in{' '}
          <a href={ACCOUNT_PATHS.settings}>Settings</a>.
        </p>
      </header>
      <section className="section" aria-label="Notifications">
        <NotificationsFeed />
      </section>
    </>
  );
}
