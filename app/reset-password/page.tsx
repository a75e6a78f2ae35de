import type { Metadata } from 'next';
import { connection } from 'next/server';

import { ForgotPasswordForm } from '@/components/account/ForgotPasswordForm';
import { ResetPasswordForm } from '@/components/account/ResetPasswordForm';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { RESET_LINK_MESSAGES, resetLinkState } from '@/lib/server/accounts/password-reset';
import { pageMetadata } from '@/lib/seo/metadata';

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export function generateMetadata(): Metadata {
  return {
    ...pageMetadata({
      title: 'Choose a new password',
      description: 'Choose a new password for your account.',
      path: '/reset-password',
      noindex: true,
    }),
    // The token is in this page's address: no request from here may carry it on (next.config.ts sends the same header).
    referrer: 'no-referrer',
  };
}

/**
 * /reset-password?token=… (the link in the reset email). Opening it uses
 * nothing (mail scanners open links too): the page only says whether the link
 * can still be used, and the form's POST uses it.
 */
export default async function ResetPasswordPage({ searchParams }: Props) {
  await connection();
  const { token: raw } = await searchParams;
  const token = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  const state = await resetLinkState(token);
  return (
    <section className={state === 'valid' ? 'auth-page' : 'auth-page result-page'} aria-labelledby="reset-title">
      <WebSiteStructuredData path="/reset-password" name="Choose a new password" />
      {state === 'valid' ? (
        <>
          <h1 id="reset-title">Choose a new password</h1>
          <p className="muted">
            At least 6 characters. Once it is saved, every device logged in to your account is logged out, and you log in again
            with the new password.
          </p>
          <ResetPasswordForm token={token} />
        </>
      ) : (
        <>
          <span className="result-icon result-bad" aria-hidden="true">
            !
          </span>
          <h1 id="reset-title">This link didn’t work</h1>
          <p role="alert" className="form-error">
            {RESET_LINK_MESSAGES[state]}
          </p>
          {state !== 'banned' && <ForgotPasswordForm submitLabel="Send me a new link" />}
        </>
      )}
    </section>
  );
}
