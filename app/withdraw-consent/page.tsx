import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WithdrawConsentForm } from '@/components/policies/WithdrawConsentForm';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Withdraw consent to a video',
    description:
      'If you appear in a video on this site, you can withdraw your consent to it. The video is hidden at once while we review your request.',
    path: '/withdraw-consent',
  });
}

/**
 * /withdraw-consent: a performer withdraws their consent to a video they
 * appear in (no account needed). The video is hidden as soon as the request
 * arrives; a moderator reviews it and removes the video for good or, if the
 * request is not from someone in the video, puts it back in review.
 */
export default async function WithdrawConsentPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  const { video } = await searchParams;
  const initialVideo = typeof video === 'string' && /^[A-Za-z0-9_-]{1,32}$/.test(video) ? `/video/${video}` : '';
  return (
    <section className="auth-page withdraw-page" aria-labelledby="withdraw-title">
      <WebSiteStructuredData path="/withdraw-consent" name="Withdraw consent to a video" />
      <h1 id="withdraw-title">Withdraw your consent to a video</h1>
      <p className="muted">
        If you appear in a video here, you can withdraw your consent to it at any time, even if you agreed before. Send this form:
        the video is hidden at once, and a moderator reviews your request. If it is confirmed, the video is removed for good; we
        may write to you at the email you give to check that the request is yours. You do not need an account.
      </p>
      <p className="muted">
        If the video shows you without your consent in the first place, or shows someone under 18, you can also tell us through
        the <a href="/community-standards#consent-and-age-of-everyone-shown">Community Standards</a> reporting options.
      </p>
      <WithdrawConsentForm initialVideo={initialVideo} />
    </section>
  );
}
