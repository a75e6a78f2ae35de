import type { Metadata } from 'next';
import { connection } from 'next/server';
import { Suspense } from 'react';

import { LoginForm } from '@/components/account/LoginForm';
import { pageMetadata } from '@/lib/seo/metadata';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Log in',
    description: 'Log in to upload, like, follow and keep your favourite videos.',
    path: '/login',
    noindex: true,
  });
}

export default async function LoginPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008); only public pages are prerendered and cached.
  await connection();
  return (
    <section className="auth-page" aria-labelledby="login-title">
      <WebSiteStructuredData path="/login" name="Log in" />
      <h1 id="login-title">Log in</h1>
      <p className="muted">Welcome back. Log in to upload, like and follow.</p>
      <Suspense fallback={null}>
        <LoginForm />
      </Suspense>
    </section>
  );
}
