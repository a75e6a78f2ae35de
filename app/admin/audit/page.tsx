import type { Metadata } from 'next';

import { Pagination } from '@/components/admin/Pagination';
import { AuditChanges } from '@/components/admin/AuditChanges';
import { ADMIN_ACTIONS, listAuditLog } from '@/lib/server/admin/audit';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { firstValues } from '@/lib/search-params';
import { pageMetadata } from '@/lib/seo/metadata';
import { auditLogQuerySchema } from '@/lib/validation/admin';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Audit log',
    description: 'Every admin action: who did what, and when.',
    path: '/admin/audit',
    noindex: true,
  });
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The audit log: every admin action, newest first, narrowed by action or target. */
export default async function AuditPage({ searchParams }: Props) {
  const raw = await searchParams;
  const parsed = auditLogQuerySchema.safeParse(firstValues(raw));
  const query = parsed.success ? parsed.data : auditLogQuerySchema.parse({});
  const { entries, pagination } = await forPage(listAuditLog(await pageActor(), query), '/admin/audit');
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Audit log</h1>
        <p>Every admin action is written here in the same step as the action itself: who, what, when.</p>
      </header>
      <form className="admin-toolbar" action="/admin/audit" method="get">
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select id="audit-action" name="action" defaultValue={query.action ?? ''}>
            <option value="">All actions</option>
            {ADMIN_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </div>
        {query.targetType && <input type="hidden" name="targetType" value={query.targetType} />}
        {query.targetId && <input type="hidden" name="targetId" value={query.targetId} />}
        <button type="submit" className="btn btn-primary">
          Show
        </button>
        {(query.targetId || query.action) && (
          <a className="btn btn-ghost" href="/admin/audit">
            Show everything
          </a>
        )}
      </form>
      {entries.length === 0 ? (
        <div className="empty-state">
          <p>No admin actions recorded{query.action ? ' of this kind' : ''} yet.</p>
        </div>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table admin-table-stack">
            <caption className="visually-hidden">Admin actions</caption>
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Admin</th>
                <th scope="col">What</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry._id}>
                  <td data-label="When">
                    <time dateTime={entry.createdAt}>{dateFormat.format(new Date(entry.createdAt))}</time>
                  </td>
                  <td data-label="Admin">
                    {entry.admin._id ? (
                      <a href={`/admin/members/${entry.admin._id}`}>{entry.admin.username}</a>
                    ) : (
                      entry.admin.username
                    )}
                  </td>
                  <td data-label="What">
                    {entry.link ? <a href={entry.link}>{entry.summary}</a> : entry.summary}
                    <AuditChanges details={entry.details} />
                    <div className="admin-muted">{entry.action}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        path="/admin/audit"
        params={{ action: query.action, targetType: query.targetType, targetId: query.targetId }}
        page={query.page}
        hasMore={pagination.hasMore}
      />
    </>
  );
}
