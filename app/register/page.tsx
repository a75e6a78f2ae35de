import type { Metadata } from 'next';

import { RegisterForm } from '@/components/account/RegisterForm';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({ title: 'Sign up', description: 'Create your free account: upload videos, like, follow and get notifications.', path: '/register', noindex: true });
}

export default function RegisterPage() {
  return (
    <section className="auth-page" aria-labelledby="register-title">
      <h1 id="register-title">Create your account</h1>
      <p className="muted">Free, and only for adults aged 18 and over.</p>
      <RegisterForm />
    </section>
  );
}
