import type { Metadata } from 'next';
import { connection } from 'next/server';

import { RegisterForm } from '@/components/account/RegisterForm';
import { pageMetadata } from '@/lib/seo/metadata';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Sign up',
    description: 'Create your free account: upload videos, like, follow and get notifications.',
    path: '/register',
    noindex: true,
  });
}

export default async function RegisterPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008); only public pages are prerendered and cached.
  await connection();
  return (
    <section className="auth-page" aria-labelledby="register-title">
      <WebSiteStructuredData path="/register" name="Sign up" />
      <h1 id="register-title">Create your account</h1>
      <p className="muted">Free, and only for adults aged 18 and over.</p>
      <RegisterForm />
    </section>
  );
}
