import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { LegalNoticeForm } from '@/components/trust/LegalNoticeForm';
import { pageActor } from '@/lib/server/auth/session';
import { memberOf } from '@/lib/server/auth/actor';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Counter-notice',
    description: 'Ask for a video taken down after a copyright notice to be restored.',
    path: '/copyright/counter-notice',
    noindex: true,
  });
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The uploader's counter-notice (17 U.S.C. 512(g)(3)); the service accepts it only for their own taken-down video. */
export default async function CounterNoticePage({ searchParams }: Props) {
  await connection();
  const video = (await searchParams).video;
  const member = memberOf(await pageActor());
  const here = `/copyright/counter-notice${typeof video === 'string' ? `?video=${encodeURIComponent(video)}` : ''}`;
  return (
    <section className="legal-page" aria-labelledby="counter-notice-title">
      <WebSiteStructuredData path="/copyright/counter-notice" name="Counter-notice" />
      <h1 id="counter-notice-title">Counter-notice</h1>
      <p>
        If your video was taken down after a copyright notice and you believe that was a mistake (you own the work, have
        permission, or the use is lawful), you can send a counter-notice. We forward it, with your name, address and phone number,
        to the person who complained. Unless they tell us within 10 to 14 business days that they have gone to court, your video
        comes back.
      </p>
      <p>A false counter-notice can make you liable for damages (17 U.S.C. § 512(f)). If you are unsure, ask a lawyer first.</p>
      {member ? (
        <LegalNoticeForm kind="counter" defaults={typeof video === 'string' ? { video: video.slice(0, 32) } : {}} />
      ) : (
        <p className="form-card">
          Please <a href={`/login?next=${encodeURIComponent(here)}`}>log in</a> with the account that uploaded the video to send a
          counter-notice.
        </p>
      )}
    </section>
  );
}
