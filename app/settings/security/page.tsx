import type { Metadata } from 'next';
import { connection } from 'next/server';

import { SessionsSettings } from '@/components/account/SessionsSettings';
import { TwoFactorSettings } from '@/components/account/TwoFactorSettings';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Security',
    description:
      'Two-factor authentication for your account: set it up, get recovery codes, or turn it off; log out other devices.',
    path: '/settings/security',
    noindex: true,
  });
}

/**
 * /settings/security (login required: proxy.ts sends visitors to /login):
 * the Security section of Settings as a page of its own, where admin pages
 * send an admin who has not enrolled two-factor or whose session did not
 * pass it (decision 018). The island asks the API, which checks the caller.
 */
export default async function SecurityPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  return (
    <>
      <WebSiteStructuredData path="/settings/security" name="Security" />
      <header className="page-header">
        <span className="eyebrow">Settings</span>
        <h1>Security</h1>
        <p>
          Two-factor authentication (logging in needs your password and a code from your phone) and the devices logged in to your
          account.
        </p>
      </header>
      <section className="section settings-page" aria-label="Two-factor authentication">
        <TwoFactorSettings />
      </section>
      <section className="section settings-page" aria-label="Sessions">
        <SessionsSettings />
      </section>
    </>
  );
}
