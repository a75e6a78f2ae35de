import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { LegalNoticeForm } from '@/components/trust/LegalNoticeForm';
import '@/components/trust/trust.css';
import { counterNoticeForClaimant, type CounterNoticeCopy } from '@/lib/server/trust/copyright';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Report a lawsuit',
    description: 'Tell us you went to court over a counter-noticed video.',
    path: '/copyright/lawsuit',
    noindex: true,
  });
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const when = (iso: string) => new Date(iso).toUTCString();

/** The counter-notice itself (512(g)(2)(B)): only here, for the holder of the link, never in the email. */
function CounterNotice({ copy }: { copy: CounterNoticeCopy }) {
  return (
    <div className="form-card" aria-labelledby="counter-title">
      <h2 id="counter-title">The counter-notice</h2>
      <p>
        Your reference: {copy.reference}. Sent {when(copy.sentAt)} under 17 U.S.C. 512(g)(3).
      </p>
      <dl>
        <dt>Name</dt>
        <dd className="statement-quote">{copy.name}</dd>
        <dt>Address</dt>
        <dd className="statement-quote">{copy.address}</dd>
        <dt>Phone</dt>
        <dd className="statement-quote">{copy.phone}</dd>
        <dt>The material and where it was</dt>
        <dd className="statement-quote">{copy.material}</dd>
        <dt>Signed</dt>
        <dd className="statement-quote">{copy.signature}</dd>
      </dl>
      <p>
        They state under penalty of perjury that they have a good faith belief the material was removed as a result of mistake or
        misidentification, and consent to the jurisdiction of the Federal District Court for their address (or, outside the United
        States, any judicial district in which we may be found) and to accept service of process from you.
      </p>
      {copy.status === 'counter_noticed' && copy.restoreAt && (
        <p>We will restore the video on {when(copy.restoreAt)} unless you tell us before then that you went to court.</p>
      )}
      {copy.status === 'lawsuit' && <p>You told us about a lawsuit: the video stays down.</p>}
      {copy.status === 'closed' && <p>This takedown is closed.</p>}
    </div>
  );
}

/** The claimant's link from the counter-notice email (17 U.S.C. 512(g)(2)(C)): the counter-notice, and a lawsuit keeps the video down. */
export default async function LawsuitPage({ searchParams }: Props) {
  await connection();
  const token = (await searchParams).token;
  const copy = typeof token === 'string' ? await counterNoticeForClaimant(token) : null;
  return (
    <section className="legal-page" aria-labelledby="lawsuit-title">
      <WebSiteStructuredData path="/copyright/lawsuit" name="Report a lawsuit" />
      <h1 id="lawsuit-title">Tell us about a lawsuit</h1>
      <p>
        You sent us a copyright notice and the uploader answered with a counter-notice. If you have filed an action seeking a
        court order to restrain them, tell us before the date in our email and the video stays down.
      </p>
      {copy && <CounterNotice copy={copy} />}
      {typeof token === 'string' && token && copy ? (
        copy.status === 'counter_noticed' && <LegalNoticeForm kind="lawsuit" defaults={{ token: token.slice(0, 100) }} />
      ) : (
        <p className="form-card form-error">
          This link is not complete or no longer valid. Open the whole link from the email we sent you.
        </p>
      )}
    </section>
  );
}
