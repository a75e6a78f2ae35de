import type { Metadata } from 'next';
import { connection } from 'next/server';

import { SettingsSections } from '@/components/account/SettingsModal';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { ACCOUNT_PATHS } from '@/lib/account-paths';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Settings',
    description: 'Your profile, preferences, email, password, security, and your data.',
    path: ACCOUNT_PATHS.settings,
    noindex: true,
  });
}

/**
 * /settings (login required: proxy.ts sends visitors to /login?next=/settings): the settings dialog's sections as a
 * page, so emails and docs can link to them (`#security`, `#data`). The islands ask the API, which checks the caller.
 */
export default async function SettingsPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  return (
    <>
      <WebSiteStructuredData path={ACCOUNT_PATHS.settings} name="Settings" />
      <header className="page-header">
        <span className="eyebrow">Your account</span>
        <h1>Settings</h1>
        <nav aria-label="Settings sections">
          <ul className="chips">
            <li>
              <a className="chip" href="#account">
                Account
              </a>
            </li>
            <li>
              <a className="chip" href="#security">
                Security
              </a>
            </li>
            <li>
              <a className="chip" href="#data">
                Your data
              </a>
            </li>
            <li>
              <a className="chip" href={ACCOUNT_PATHS.notifications}>
                Notifications
              </a>
            </li>
          </ul>
        </nav>
      </header>
      <section className="section settings-page" aria-label="Settings">
        <SettingsSections headed />
      </section>
    </>
  );
}
