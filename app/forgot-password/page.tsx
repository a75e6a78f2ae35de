import type { Metadata } from 'next';
import { connection } from 'next/server';

import { ForgotPasswordForm } from '@/components/account/ForgotPasswordForm';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Forgot password',
    description: 'Get a link to choose a new password for your account.',
    path: '/forgot-password',
    noindex: true,
  });
}

export default async function ForgotPasswordPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  return (
    <section className="auth-page" aria-labelledby="forgot-title">
      <WebSiteStructuredData path="/forgot-password" name="Forgot password" />
      <h1 id="forgot-title">Forgot your password?</h1>
      <p className="muted">
        Enter the email address of your account. We will email you a link to choose a new password; it works for 1 hour.
      </p>
      <ForgotPasswordForm />
    </section>
  );
}
