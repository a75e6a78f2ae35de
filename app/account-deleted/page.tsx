import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Account deleted',
    description: 'Your account has been deleted.',
    path: '/account-deleted',
    noindex: true,
  });
}

/** Where the settings' "Delete my account" lands once the account is gone and the browser's session is cleared. */
export default async function AccountDeletedPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  return (
    <section className="auth-page result-page" aria-labelledby="deleted-title">
      <WebSiteStructuredData path="/account-deleted" name="Account deleted" />
      <span className="result-icon result-ok" aria-hidden="true">
        ✓
      </span>
      <h1 id="deleted-title">Your account has been deleted</h1>
      <p>
        You are logged out everywhere. Your videos, comments, likes and follows are gone, and a confirmation is on its way to your
        email address.
      </p>
      <a className="btn btn-primary" href="/">
        Back to the home page
      </a>
    </section>
  );
}
