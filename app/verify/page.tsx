import type { Metadata } from 'next';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { VerificationPanel } from '@/components/verification/VerificationPanel';
import { getConfig } from '@/lib/config/server';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { getMyVerification } from '@/lib/server/verification';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Verify your identity',
    description: 'Verify your identity so your videos can be published.',
    path: '/verify',
    noindex: true,
  });
}

/**
 * /verify (login required: proxy.ts sends visitors to /login first, and the
 * service refuses them anyway): the member's identity verification and the
 * form to send their documents. Linked from Settings and the upload page.
 */
export default async function VerifyPage() {
  const verification = await forPage(getMyVerification(await pageActor()), '/verify');
  const { verificationRetentionDays, recordsRetentionYears } = getConfig();
  return (
    <div className="verify-page">
      <WebSiteStructuredData path="/verify" name="Verify your identity" />
      <header className="page-header">
        <span className="eyebrow">Verified uploaders</span>
        <h1>Verify your identity</h1>
        <p>
          Every video on this site is published only when its uploader is a verified adult. Send your legal name, date of birth, a
          photo of your government ID and a selfie holding it; our team checks them, usually within two working days.
        </p>
      </header>
      <VerificationPanel initial={verification} />
      <section className="verify-why" aria-labelledby="verify-why-title">
        <h2 id="verify-why-title">What happens to your documents</h2>
        <ul>
          <li>They are encrypted and kept apart from videos and photos; they are never public.</li>
          <li>Only our admins can open them, and every time they do is recorded.</li>
          <li>
            When your account ends, they are deleted within {verificationRetentionDays} days. If you published videos, your name,
            date of birth and ID are kept for {recordsRetentionYears} years, as US record-keeping law (18 U.S.C. 2257) requires,
            then deleted.
          </li>
        </ul>
        <p>
          Read more in our <a href="/privacy-policy">Privacy Policy</a>.
        </p>
      </section>
    </div>
  );
}
