import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { LegalNoticeForm } from '@/components/trust/LegalNoticeForm';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({ title: 'Report a lawsuit', description: 'Tell us you went to court over a counter-noticed video.', path: '/copyright/lawsuit', noindex: true });
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The claimant's link from the counter-notice email (17 U.S.C. 512(g)(2)(C)): a lawsuit keeps the video down. */
export default async function LawsuitPage({ searchParams }: Props) {
  await connection();
  const token = (await searchParams).token;
  return (
    <section className="legal-page" aria-labelledby="lawsuit-title">
      <WebSiteStructuredData path="/copyright/lawsuit" name="Report a lawsuit" />
      <h1 id="lawsuit-title">Tell us about a lawsuit</h1>
      <p>
        You sent us a copyright notice and the uploader answered with a counter-notice. If you have filed an action seeking a court order to restrain them, tell us before the date in
        our email and the video stays down.
      </p>
      {typeof token === 'string' && token ? (
        <LegalNoticeForm kind="lawsuit" defaults={{ token: token.slice(0, 100) }} />
      ) : (
        <p className="form-card form-error">This link is not complete. Open the whole link from the email we sent you.</p>
      )}
    </section>
  );
}
