import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { LegalNoticeForm } from '@/components/trust/LegalNoticeForm';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Report content',
    description:
      'Tell us about a video that shows someone without their consent, a minor, or something illegal. No account needed; urgent notices hide the video at once.',
    path: '/report-content',
  });
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The public notice form (DSA Art. 16, TAKE IT DOWN Act): anyone, no account, linked from every video page and the footer. */
export default async function ReportContentPage({ searchParams }: Props) {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  const video = (await searchParams).video;
  return (
    <section className="legal-page" aria-labelledby="report-content-title">
      <WebSiteStructuredData path="/report-content" name="Report content" />
      <h1 id="report-content-title">Report content</h1>
      <p>
        Anyone can use this form, with or without an account. Tell us which video is wrong and why, and how we can reach you. We
        email you a reference at once and the outcome when we have decided.
      </p>
      <p className="legal-urgent">
        <strong>Intimate images shared without consent, or anyone under 18:</strong> the video is hidden as soon as you send the
        notice, and a moderator decides within 48 hours. Other notices are decided within 7 business days.
      </p>
      <p>
        Is it your copyrighted work? Use the <a href="/copyright/notice">copyright (DMCA) notice form</a> instead. If someone is
        in immediate danger, call your local emergency number first.
      </p>
      <LegalNoticeForm kind="notice" defaults={typeof video === 'string' ? { video: video.slice(0, 500) } : {}} />
    </section>
  );
}
