import type { Metadata } from 'next';

import { AdminAction } from '@/components/admin/AdminAction';
import type { VerificationDocumentDto } from '@/lib/api-types';
import { formatBytes } from '@/lib/client/format';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { getVerification } from '@/lib/server/verification';
import { pageMetadata } from '@/lib/seo/metadata';
import { VERIFICATION_REASON_MAX, VERIFICATION_REJECT_TEMPLATES } from '@/lib/validation/verification';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Verification',
    description: 'One uploader’s identity documents.',
    path: '/admin/verifications',
    noindex: true,
  });
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const when = (iso: string) => `${dateFormat.format(new Date(iso))} UTC`;
const STATUS = { pending: 'Pending review', approved: 'Verified', rejected: 'Rejected' } as const;

/** A document as an admin sees it: photos inline (each load is an audited view), PDFs as a download. */
function DocumentView({ document, label }: { document: VerificationDocumentDto | null; label: string }) {
  if (!document) return <p className="admin-muted">The {label.toLowerCase()} has been deleted (retention).</p>;
  if (document.mediaType === 'application/pdf') {
    return (
      <p>
        <a className="btn btn-ghost" href={document.url} download>
          Download the {label.toLowerCase()} (PDF, {formatBytes(document.byteSize)})
        </a>
      </p>
    );
  }
  return (
    <a href={document.url} target="_blank" rel="noopener noreferrer" className="verify-document">
      {/* A private, admin-only route: the image optimiser must never fetch or cache it. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={document.url} alt={label} referrerPolicy="no-referrer" />
    </a>
  );
}

type Props = { params: Promise<{ id: string }> };

/** One submission: the member's details beside their documents, and the decision. */
export default async function VerificationPage({ params }: Props) {
  const { id } = await params;
  const verification = await forPage(getVerification(await pageActor(), id), `/admin/verifications/${encodeURIComponent(id)}`);
  const url = `/api/admin/verifications/${verification._id}`;
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">
          <a href="/admin/verifications">Verifications</a>
        </span>
        <h1>{verification.member.username ?? '[deleted member]'}</h1>
        <p>
          <span className="admin-badges">
            <span
              className={`admin-badge${verification.status === 'rejected' ? ' admin-badge-banned' : verification.status === 'pending' ? ' admin-badge-warn' : ''}`}
            >
              {STATUS[verification.status]}
            </span>
          </span>
        </p>
      </header>
      <div className="admin-panels">
        <section className="admin-section admin-report" aria-labelledby="details-heading">
          <h2 id="details-heading">What they told us</h2>
          <dl className="admin-facts">
            <div>
              <dt>Legal name</dt>
              <dd>{verification.legalName}</dd>
            </div>
            <div>
              <dt>Date of birth</dt>
              <dd>
                {verification.dateOfBirth} (age {verification.age})
              </dd>
            </div>
            <div>
              <dt>Submitted</dt>
              <dd>{when(verification.submittedAt)}</dd>
            </div>
            <div>
              <dt>Member</dt>
              <dd>
                {verification.member.username ? (
                  <a href={`/admin/members/${verification.member._id}`}>{verification.member.username}</a>
                ) : (
                  'Deleted account'
                )}
              </dd>
            </div>
            {verification.reviewedAt && (
              <div>
                <dt>Reviewed</dt>
                <dd>
                  {when(verification.reviewedAt)}
                  {verification.reviewedBy ? ` by ${verification.reviewedBy}` : ''}
                </dd>
              </div>
            )}
          </dl>
          {verification.rejectionReason && (
            <p className="admin-verdict">
              <strong>Rejected:</strong> {verification.rejectionReason}
            </p>
          )}
          {verification.status === 'pending' && (
            <div className="admin-actions">
              <AdminAction
                label="Approve"
                confirmLabel={`Verify ${verification.member.username ?? 'this member'}`}
                confirm="The name and date of birth match the ID, the ID is current, and the selfie shows the same person holding it."
                method="PATCH"
                url={url}
                body={{ action: 'approve' }}
                done="Verified. The member has been told."
              />
              <AdminAction
                label="Reject…"
                danger
                method="PATCH"
                url={url}
                body={{ action: 'reject' }}
                fields={[
                  {
                    name: 'reason',
                    label: 'Reason (the member reads it)',
                    kind: 'textarea',
                    requiredMessage: 'Give the reason the member will read.',
                    maxLength: VERIFICATION_REASON_MAX,
                    templates: VERIFICATION_REJECT_TEMPLATES,
                  },
                ]}
                done="Rejected. The member has been told why and can send new documents."
              />
            </div>
          )}
        </section>
        <section className="admin-section admin-report" aria-labelledby="id-heading">
          <h2 id="id-heading">Government ID</h2>
          <DocumentView document={verification.idDocument} label="ID document" />
        </section>
        <section className="admin-section admin-report" aria-labelledby="selfie-heading">
          <h2 id="selfie-heading">Selfie holding the ID</h2>
          <DocumentView document={verification.selfie} label="Selfie" />
        </section>
        {verification.history.length > 0 && (
          <section className="admin-section admin-report" aria-labelledby="history-heading">
            <h2 id="history-heading">Earlier submissions</h2>
            <ul>
              {verification.history.map((item) => (
                <li key={item._id}>
                  <a href={`/admin/verifications/${item._id}`}>{when(item.submittedAt)}</a>: {STATUS[item.status]}
                  {item.rejectionReason ? ` (${item.rejectionReason})` : ''}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </>
  );
}
