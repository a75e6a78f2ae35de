import type { Metadata } from 'next';

import { formatCount } from '@/lib/format/numbers';
import { getAdminStats } from '@/lib/server/admin/stats';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Admin Panel',
    description: 'The site at a glance: members, videos, uploads, reports and VIP.',
    path: '/admin',
    noindex: true,
  });
}

const UPLOAD_DAYS = 14;

function Card({
  label,
  value,
  note,
  href,
  alert,
}: {
  label: string;
  value: number;
  note?: string;
  href?: string;
  alert?: boolean;
}) {
  const body = (
    <>
      <span className="admin-card-label">{label}</span>
      <span className="admin-card-value">{formatCount(value)}</span>
      {note && <span className="admin-card-note">{note}</span>}
    </>
  );
  const className = `admin-card${alert ? ' admin-card-alert' : ''}`;
  return (
    <li>
      {href ? (
        <a className={className} href={href}>
          {body}
        </a>
      ) : (
        <div className={className}>{body}</div>
      )}
    </li>
  );
}

/** The dashboard: figures straight from the database on every visit (the layout has checked the admin). */
export default async function AdminDashboard() {
  const stats = await forPage(getAdminStats(await pageActor(), UPLOAD_DAYS), '/admin');
  const busiest = Math.max(1, ...stats.uploadsPerDay.map((day) => day.count));
  const uploadsInWindow = stats.uploadsPerDay.reduce((sum, day) => sum + day.count, 0);
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Dashboard</h1>
        <p>The site at a glance. Work the queues from the top: urgent reports, then videos waiting for review.</p>
      </header>

      <section className="admin-section" aria-labelledby="needs-attention">
        <h2 id="needs-attention">Needs attention</h2>
        <ul className="admin-cards">
          <Card
            label="Open reports"
            value={stats.reports.open}
            note={`${formatCount(stats.reports.urgent)} urgent · ${formatCount(stats.reports.overdue)} overdue`}
            href="/admin/reports"
            alert={stats.reports.urgent + stats.reports.overdue > 0}
          />
          <Card
            label="Videos to review"
            value={stats.videos.byModeration.pending}
            note={`${formatCount(stats.videos.awaitingReview)} ready to watch`}
            href="/admin/moderation"
            alert={stats.videos.awaitingReview > 0}
          />
          <Card
            label="Processing failed"
            value={stats.videos.byProcessing.failed}
            note="Rejected or retried by the uploader"
            href="/admin/moderation"
          />
        </ul>
      </section>

      <section className="admin-section" aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <ul className="admin-cards">
          <Card
            label="Members"
            value={stats.members.total}
            note={`${formatCount(stats.members.newLast7Days)} new this week`}
            href="/admin/members"
          />
          <Card label="Verified" value={stats.members.verified} />
          <Card label="VIP (Edge Trainer)" value={stats.members.vip} href="/admin/members?filter=vip" />
          <Card label="Banned" value={stats.members.banned} href="/admin/members?filter=banned" />
          <Card label="Admins" value={stats.members.admins} href="/admin/members?filter=admins" />
        </ul>
      </section>

      <section className="admin-section" aria-labelledby="videos-heading">
        <h2 id="videos-heading">Videos</h2>
        <ul className="admin-cards">
          <Card label="All videos" value={stats.videos.total} />
          <Card label="Approved" value={stats.videos.byModeration.approved} />
          <Card label="Pending" value={stats.videos.byModeration.pending} />
          <Card label="Rejected" value={stats.videos.byModeration.rejected} />
          <Card label="Processing now" value={stats.videos.byProcessing.queued + stats.videos.byProcessing.processing} />
        </ul>
      </section>

      <section className="admin-section" aria-labelledby="uploads-heading">
        <h2 id="uploads-heading">Uploads per day</h2>
        <p className="admin-muted">
          {formatCount(uploadsInWindow)} upload{uploadsInWindow === 1 ? '' : 's'} in the last {UPLOAD_DAYS} days (UTC).
        </p>
        <ol className="admin-bars" aria-label={`Uploads per day, last ${UPLOAD_DAYS} days`}>
          {stats.uploadsPerDay.map((day) => (
            <li key={day.day} className="admin-bar" aria-label={`${day.day}: ${day.count} uploads`}>
              <span aria-hidden="true">{day.count}</span>
              <span className="admin-bar-track" aria-hidden="true" style={{ height: '100%' }}>
                <span className="admin-bar-fill" style={{ height: `${(day.count / busiest) * 100}%` }} />
              </span>
              <span aria-hidden="true">{day.day.slice(8)}</span>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
