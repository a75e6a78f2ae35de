import type { Metadata } from 'next';

import { AdminAction } from '@/components/admin/AdminAction';
import { Pagination } from '@/components/admin/Pagination';
import type { AdminReportDto } from '@/lib/api-types';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { listReports } from '@/lib/server/reports/list';
import { firstValues } from '@/lib/search-params';
import { pageMetadata } from '@/lib/seo/metadata';
import { REPORT_NOTE_MAX } from '@/lib/validation/admin';
import { reportListQuerySchema, REPORT_STATUSES } from '@/lib/validation/community';

export function generateMetadata(): Metadata {
  return pageMetadata({ title: 'Reports', description: 'Reports from members and visitors, urgent first, with due dates.', path: '/admin/reports', noindex: true });
}

const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const TAKEDOWN_LABELS: Record<NonNullable<AdminReportDto['takedown']>['status'], string> = {
  active: 'Taken down, no counter-notice yet',
  counter_noticed: 'Counter-notice received',
  lawsuit: 'Lawsuit reported: stays down',
  restored: 'Restored after a counter-notice',
  withdrawn: 'Withdrawn',
  upheld: 'Upheld (a strike)',
};
const STATUS_LABELS = { open: 'Open', resolved: 'Removed', dismissed: 'Dismissed' } as const;
const REMOVE_LABELS = { video: 'Remove video', comment: 'Delete comment', profile: 'Ban member' } as const;

function Target({ report }: { report: AdminReportDto }) {
  const target = report.target;
  if (!target) return <p className="admin-muted">The reported {report.targetType} no longer exists.</p>;
  if (target.type === 'video')
    return (
      <p>
        Video <a href={target.link}>“{target.title}”</a> by {target.uploader.username}
      </p>
    );
  if (target.type === 'comment')
    return (
      <p>
        Comment by {target.author.username} on <a href={target.link}>“{target.video.title}”</a>: “{target.excerpt}”
      </p>
    );
  return (
    <p>
      Profile <a href={target.link}>{target.username}</a>
    </p>
  );
}

function ReportCard({ report }: { report: AdminReportDto }) {
  const headingId = `report-${report._id}`;
  return (
    <article className={`admin-report${report.urgent && report.status === 'open' ? ' admin-report-urgent' : ''}`} aria-labelledby={headingId}>
      <h3 id={headingId}>
        {report.reasonLabel}{' '}
        <span className="admin-badges">
          {report.urgent && <span className="admin-badge admin-badge-banned">Urgent</span>}
          {report.source === 'notice' && <span className="admin-badge">{report.reason === 'copyright' ? 'DMCA notice' : 'Notice'}</span>}
          {report.heldVideo && report.status === 'open' && <span className="admin-badge admin-badge-warn">Video hidden</span>}
          {report.overdue && <span className="admin-badge admin-badge-warn">Overdue</span>}
          {report.reportsOnTarget > 1 && <span className="admin-badge">{report.reportsOnTarget} reports on this</span>}
        </span>
      </h3>
      <Target report={report} />
      {report.clock && (
        <p className={`admin-clock${report.overdue ? ' admin-clock-overdue' : ''}`}>
          <strong>{report.overdue ? `Overdue by ${report.clock.replace(/^overdue by /, '')}` : report.clock}</strong> · due {dateTimeFormat.format(new Date(report.dueAt))} UTC
        </p>
      )}
      {report.details && <p className="admin-description">“{report.details}”</p>}
      {report.notifier && (
        <dl className="admin-notifier">
          <dt>Sent by</dt>
          <dd>{report.notifier.name}</dd>
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${report.notifier.email}`}>{report.notifier.email}</a>
          </dd>
          <dt>Signature</dt>
          <dd>{report.notifier.signature}</dd>
          {report.takedown && (
            <>
              <dt>Address</dt>
              <dd>{report.takedown.claimant.address}</dd>
              <dt>Phone</dt>
              <dd>{report.takedown.claimant.phone}</dd>
              <dt>Takedown</dt>
              <dd>
                {TAKEDOWN_LABELS[report.takedown.status]}
                {report.takedown.status === 'counter_noticed' && report.takedown.restoreAt ? `: comes back ${dateTimeFormat.format(new Date(report.takedown.restoreAt))} UTC unless a lawsuit is reported` : ''}
              </dd>
            </>
          )}
        </dl>
      )}
      <p className="admin-muted">
        Reported {report.age} by {report.reporter ? report.reporter.username : report.notifier ? 'a notice sender' : 'a visitor'}
        {report.status === 'open' ? '' : ` · ${STATUS_LABELS[report.status].toLowerCase()}${report.resolutionNote ? `: ${report.resolutionNote}` : ''}`}
      </p>
      {report.status === 'open' && (
        <div className="admin-actions">
          <AdminAction
            label={`${REMOVE_LABELS[report.targetType]}…`}
            confirmLabel={REMOVE_LABELS[report.targetType]}
            danger
            method="PATCH"
            url={`/api/admin/reports/${report._id}`}
            body={{ action: 'remove' }}
            fields={[{ name: 'note', label: 'Note (the uploader sees it for videos)', kind: 'textarea', maxLength: REPORT_NOTE_MAX }]}
            done="Removed, and the report closed."
          />
          <AdminAction
            label="Dismiss…"
            confirmLabel="Dismiss report"
            method="PATCH"
            url={`/api/admin/reports/${report._id}`}
            body={{ action: 'dismiss' }}
            fields={[{ name: 'note', label: 'Why nothing is wrong (optional)', kind: 'textarea', maxLength: REPORT_NOTE_MAX }]}
            done="Report dismissed."
          />
          {report.takedown?.status === 'counter_noticed' && (
            <AdminAction
              label="Record a lawsuit…"
              confirmLabel="Record the lawsuit"
              method="POST"
              url={`/api/admin/copyright/takedowns/${report.takedown._id}/lawsuit`}
              body={{}}
              fields={[{ name: 'details', label: 'The court and the case number', kind: 'textarea', maxLength: 2000 }]}
              done="Lawsuit recorded: the video stays down."
            />
          )}
        </div>
      )}
    </article>
  );
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The report queue: soonest due first, each with its clock; notices with their senders' contact details (decision 016). */
export default async function ReportsPage({ searchParams }: Props) {
  const raw = await searchParams;
  const parsed = reportListQuerySchema.safeParse(firstValues(raw));
  const query = parsed.success ? parsed.data : reportListQuerySchema.parse({});
  const { reports, counts, pagination } = await forPage(listReports(await pageActor(), query.status, { page: query.page, limit: query.limit }), '/admin/reports');
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Reports</h1>
        <p>The report due soonest comes first. Non-consent and minors are hidden at once and due within 48 hours; everything else within seven business days. Removing or dismissing closes every open report on the same thing; dismissing a notice that hid a video makes it public again.</p>
      </header>
      <nav className="admin-tabs" aria-label="Report lists">
        {REPORT_STATUSES.map((status) => (
          <a key={status} className="admin-tab" href={`/admin/reports?status=${status}`} aria-current={status === query.status ? 'page' : undefined}>
            {STATUS_LABELS[status]} <span className="admin-tab-count">{counts[status]}</span>
          </a>
        ))}
      </nav>
      {reports.length === 0 ? (
        <div className="empty-state">
          <p>{query.status === 'open' ? 'No open reports. Nothing needs a decision.' : `No ${STATUS_LABELS[query.status].toLowerCase()} reports yet.`}</p>
        </div>
      ) : (
        <ol className="admin-list" aria-label={`${STATUS_LABELS[query.status]} reports`}>
          {reports.map((report) => (
            <li key={report._id}>
              <ReportCard report={report} />
            </li>
          ))}
        </ol>
      )}
      <Pagination path="/admin/reports" params={{ status: query.status }} page={query.page} hasMore={pagination.hasMore} />
    </>
  );
}
