import type { Metadata } from 'next';
import { connection } from 'next/server';
import { Suspense } from 'react';

import { ResendVerificationForm } from '@/components/account/ResendVerificationForm';
import { pageMetadata } from '@/lib/seo/metadata';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Verification link not valid',
    description: 'This verification link is not valid any more.',
    path: '/email-verification-failed',
    noindex: true,
  });
}

export default async function EmailVerificationFailedPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008); only public pages are prerendered and cached.
  await connection();
  return (
    <section className="auth-page result-page" aria-labelledby="failed-title">
      <WebSiteStructuredData path="/email-verification-failed" name="Verification link not valid" />
      <span className="result-icon result-bad" aria-hidden="true">
        !
      </span>
      <h1 id="failed-title">This link didn’t work</h1>
      <p>
        The verification link is invalid, was already used, or has expired (links work for 24 hours). Ask for a new one below.
      </p>
      <Suspense fallback={null}>
        <ResendVerificationForm />
      </Suspense>
    </section>
  );
}
