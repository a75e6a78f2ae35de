import type { Metadata } from 'next';

import { Pagination } from '@/components/admin/Pagination';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { listVerifications } from '@/lib/server/verification';
import { firstValues } from '@/lib/search-params';
import { pageMetadata } from '@/lib/seo/metadata';
import { VERIFICATION_LIST_STATUSES, verificationListQuerySchema } from '@/lib/validation/verification';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Verifications',
    description: 'Review the identity documents of uploaders.',
    path: '/admin/verifications',
    noindex: true,
  });
}

const LABELS = { pending: 'Pending', approved: 'Verified', rejected: 'Rejected' } as const;
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Identity verifications: pending ones first come, first reviewed; each row opens the documents and the decision. */
export default async function VerificationsPage({ searchParams }: Props) {
  const { status, page } = firstValues(await searchParams);
  const parsed = verificationListQuerySchema.safeParse({ status, page });
  const query = parsed.success ? parsed.data : verificationListQuerySchema.parse({});
  const { verifications, counts, pagination } = await forPage(
    listVerifications(await pageActor(), query),
    '/admin/verifications',
  );
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Identity verifications</h1>
        <p>
          A video is approved only when its uploader is verified. Compare the ID, the selfie, the legal name and the date of
          birth; every document you open is recorded in the audit log.
        </p>
      </header>
      <nav className="admin-tabs" aria-label="Verification status">
        {VERIFICATION_LIST_STATUSES.map((tab) => (
          <a
            key={tab}
            className="admin-tab"
            href={`/admin/verifications?status=${tab}`}
            aria-current={tab === query.status ? 'page' : undefined}
          >
            {LABELS[tab]} <span className="admin-tab-count">{counts[tab]}</span>
          </a>
        ))}
      </nav>
      {verifications.length === 0 ? (
        <div className="empty-state">
          <p>
            {query.status === 'pending'
              ? 'Nothing to review. New submissions appear here.'
              : `No ${LABELS[query.status].toLowerCase()} submissions.`}
          </p>
        </div>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table admin-table-stack">
            <caption className="visually-hidden">{LABELS[query.status]} verifications</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Legal name</th>
                <th scope="col">Submitted</th>
                <th scope="col">{query.status === 'pending' ? 'Provider' : 'Reviewed'}</th>
              </tr>
            </thead>
            <tbody>
              {verifications.map((item) => (
                <tr key={item._id}>
                  <td data-label="Member">
                    <a
                      href={`/admin/verifications/${item._id}`}
                      aria-label={`Review ${item.member.username ?? 'deleted member'}`}
                    >
                      {item.member.username ?? '[deleted member]'}
                    </a>
                  </td>
                  <td data-label="Legal name">{item.legalName}</td>
                  <td data-label="Submitted">
                    <time dateTime={item.submittedAt}>{dateFormat.format(new Date(item.submittedAt))} UTC</time>
                  </td>
                  <td data-label={query.status === 'pending' ? 'Provider' : 'Reviewed'}>
                    {query.status === 'pending'
                      ? item.provider
                      : `${item.reviewedAt ? dateFormat.format(new Date(item.reviewedAt)) : ''}${item.reviewedBy ? ` by ${item.reviewedBy}` : ''}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        path="/admin/verifications"
        params={{ status: query.status === 'pending' ? undefined : query.status }}
        page={query.page}
        hasMore={pagination.hasMore}
      />
    </>
  );
}
