import type { Metadata } from 'next';
import type { ReactNode } from 'react';

import { AdminAction } from '@/components/admin/AdminAction';
import { pageActor } from '@/lib/server/auth/session';
import { jobCountsForAdmin, listJobsForAdmin, type JobRow } from '@/lib/server/jobs/admin';
import { forPage } from '@/lib/server/page-access';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Jobs',
    description: 'Background jobs that failed, are stuck or are retrying, with their errors and a Retry button.',
    path: '/admin/jobs',
    noindex: true,
  });
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
const when = (iso: string | null) => (iso ? <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time> : '—');
const STATES = ['queued', 'running', 'stuck', 'failed', 'done'] as const;
const LIST_LIMIT = 50;

const SECTIONS = [
  {
    state: 'failed',
    title: 'Failed',
    empty: 'No failed jobs.',
    note: 'Gave up after their last attempt. Retry runs one more attempt now.',
  },
  {
    state: 'stuck',
    title: 'Stuck',
    empty: 'No stuck jobs.',
    note: 'Running, but their worker stopped renewing its lease or they have run too long (JOB_STUCK_MINUTES). Retry takes them from their worker and queues them now.',
  },
  {
    state: 'retrying',
    title: 'Retrying after an error',
    empty: 'No jobs are waiting to retry.',
    note: 'Failed an attempt and wait for the next one. Retry runs the next attempt now.',
  },
] as const;

function Fact({ term, className, children }: { term: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

/** One job: what it is, what it works on, how far it got, its last error as text, and Retry. */
function JobItem({ job }: { job: JobRow }) {
  const name = `${job.type} job${job.target ? `: ${job.target.label}` : ''}`;
  return (
    <li>
      <article className="admin-item admin-job" aria-label={name}>
        <div className="admin-body">
          <h3 className="admin-title">
            <code>{job.type}</code> {job.stuck && <span className="admin-badge admin-badge-banned">stuck</span>}
          </h3>
          <dl className="admin-facts">
            <Fact term="Target">
              {job.target ? (
                job.target.href ? (
                  <a href={job.target.href}>{job.target.label}</a>
                ) : (
                  job.target.label
                )
              ) : (
                <span className="admin-muted">—</span>
              )}
            </Fact>
            <Fact term="Attempts">{`${job.attempts} of ${job.maxAttempts}`}</Fact>
            <Fact term="Queued">{when(job.createdAt)}</Fact>
            {job.status === 'failed' && <Fact term="Gave up">{when(job.finishedAt)}</Fact>}
            {job.status === 'running' && <Fact term="Running since">{when(job.claimedAt)}</Fact>}
            {job.status === 'running' && <Fact term="Lease until">{when(job.lockedUntil)}</Fact>}
            {job.status === 'queued' && <Fact term="Next attempt">{when(job.runAt)}</Fact>}
            <Fact term="Job id" className="admin-job-id">
              {job.id}
            </Fact>
          </dl>
          {job.status === 'running' && job.lockedBy && <p className="admin-muted">Worker: {job.lockedBy}</p>}
          <div className="admin-processing-detail">
            <strong>Last error</strong>
            {job.lastError ? <pre>{job.lastError}</pre> : <p className="admin-muted">None recorded.</p>}
          </div>
          <AdminAction label="Retry" method="POST" url={`/api/admin/jobs/${job.id}/retry`} done="Queued to run again now." />
        </div>
      </article>
    </li>
  );
}

/** Jobs an operator should look at: counts by state and type, then failed, stuck and retrying jobs with their last errors. */
export default async function JobsPage() {
  const actor = await pageActor();
  const counts = await forPage(jobCountsForAdmin(actor), '/admin/jobs');
  const lists = await Promise.all(
    SECTIONS.map((section) => forPage(listJobsForAdmin(actor, section.state, LIST_LIMIT), '/admin/jobs')),
  );
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Jobs</h1>
        <p>
          Background work: video processing, mail, data exports and sweeps. Finished jobs are deleted after{' '}
          <code>JOB_RETENTION_DAYS</code>, failed ones after <code>JOB_FAILED_RETENTION_DAYS</code>. From a console,{' '}
          <code>npm run jobs -- list</code> shows the same.
        </p>
      </header>
      <section className="admin-section" aria-labelledby="jobs-counts">
        <h2 id="jobs-counts">By state</h2>
        <ul className="admin-cards">
          {STATES.map((state) => (
            <li key={state}>
              <div
                className={`admin-card${(state === 'failed' || state === 'stuck') && counts.totals[state] > 0 ? ' admin-card-alert' : ''}`}
              >
                <span className="admin-card-label">{state[0]!.toUpperCase() + state.slice(1)}</span>
                <span className="admin-card-value">{counts.totals[state]}</span>
              </div>
            </li>
          ))}
        </ul>
        {counts.byType.length > 0 && (
          <div className="admin-table-wrap">
            <table className="admin-table admin-table-stack">
              <caption className="visually-hidden">Jobs by type and state</caption>
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  {STATES.map((state) => (
                    <th scope="col" key={state}>
                      {state[0]!.toUpperCase() + state.slice(1)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {counts.byType.map((row) => (
                  <tr key={row.type}>
                    <th scope="row" data-label="Type">
                      <code>{row.type}</code>
                    </th>
                    {STATES.map((state) => (
                      <td key={state} data-label={state[0]!.toUpperCase() + state.slice(1)}>
                        {row[state]}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {SECTIONS.map((section, index) => {
        const { jobs, hasMore } = lists[index]!;
        return (
          <section className="admin-section" aria-labelledby={`jobs-${section.state}`} key={section.state}>
            <h2 id={`jobs-${section.state}`}>
              {section.title} ({jobs.length}
              {hasMore ? '+' : ''})
            </h2>
            <p className="admin-muted">{section.note}</p>
            {jobs.length === 0 ? (
              <p className="empty-state">{section.empty}</p>
            ) : (
              <ul className="admin-list" aria-label={section.title}>
                {jobs.map((job) => (
                  <JobItem key={job.id} job={job} />
                ))}
              </ul>
            )}
            {hasMore && (
              <p className="admin-muted">
                The {LIST_LIMIT} {section.state === 'failed' ? 'newest' : 'oldest'} are shown;{' '}
                <code>npm run jobs -- list --state {section.state}</code> lists the rest.
              </p>
            )}
          </section>
        );
      })}
    </>
  );
}
