import type { Metadata } from 'next';
import { connection } from 'next/server';

import { pageMetadata } from '@/lib/seo/metadata';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Email verified',
    description: 'Your email address is verified.',
    path: '/email-verified',
    noindex: true,
  });
}

export default async function EmailVerifiedPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008); only public pages are prerendered and cached.
  await connection();
  return (
    <section className="auth-page result-page" aria-labelledby="verified-title">
      <WebSiteStructuredData path="/email-verified" name="Email verified" />
      <span className="result-icon result-ok" aria-hidden="true">
        ✓
      </span>
      <h1 id="verified-title">Email verified</h1>
      <p>Thank you! Your email address is confirmed. You can log in now.</p>
      <a className="btn btn-primary" href="/login">
        Log in
      </a>
    </section>
  );
}
