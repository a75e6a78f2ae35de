import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { LegalNoticeForm } from '@/components/trust/LegalNoticeForm';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Copyright notice',
    description:
      'Send a DMCA notice about a video that uses your copyrighted work. A complete notice takes the video down at once.',
    path: '/copyright/notice',
  });
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** A DMCA notice with the fields 17 U.S.C. 512(c)(3) requires. */
export default async function CopyrightNoticePage({ searchParams }: Props) {
  await connection();
  const video = (await searchParams).video;
  return (
    <section className="legal-page" aria-labelledby="copyright-notice-title">
      <WebSiteStructuredData path="/copyright/notice" name="Copyright notice" />
      <h1 id="copyright-notice-title">Copyright notice (DMCA)</h1>
      <p>
        If a video here uses your copyrighted work without permission, send this notice. It has the parts the Digital Millennium
        Copyright Act (17 U.S.C. § 512(c)(3)) asks for. A complete notice takes the video down at once; we tell the uploader why
        and forward any counter-notice to you.
      </p>
      <p>
        Knowingly false notices can make you liable for damages (17 U.S.C. § 512(f)). See our{' '}
        <a href="/copyright-policy">Copyright Policy</a> for how we handle notices, or to write to our designated agent instead.
      </p>
      <LegalNoticeForm kind="dmca" defaults={typeof video === 'string' ? { video: video.slice(0, 500) } : {}} />
    </section>
  );
}
