import type { Metadata } from 'next';
import { connection } from 'next/server';

import { ArticleStructuredData } from '@/components/seo/StructuredData';
import { getConfig } from '@/lib/config/server';
import { loadTransparencyReport } from '@/lib/server/trust/transparency';
import { pageMetadata } from '@/lib/seo/metadata';
import { REPORT_REASON_LABELS, REPORT_REASONS } from '@/lib/report-reasons';
import { DECISION_ACTION_LABELS } from '@/lib/trust/statements';
import type { HalfYearReport } from '@/lib/trust/transparency';

import '@/components/trust/trust.css';

const DESCRIPTION =
  'How many notices and reports we received, what we did about them, how fast, and how appeals turned out, every half-year.';

export function generateMetadata(): Metadata {
  return pageMetadata({ title: 'Transparency report', description: DESCRIPTION, path: '/transparency', type: 'article' });
}

/** Action names in the third person for a public page ("Video not approved"), from the member-facing labels. */
const actionName = (action: string) =>
  (DECISION_ACTION_LABELS[action] ?? action).replace(/^Your (\w)/, (_m, c: string) => c.toUpperCase());
const hoursText = (value: number | null) =>
  value === null ? '—' : value < 48 ? `${value} hours` : `${Math.round((value / 24) * 10) / 10} days`;

function Period({ period }: { period: HalfYearReport }) {
  const headingId = `period-${period.key}`;
  const actions = Object.entries(period.actions.byAction).sort((a, b) => a[0].localeCompare(b[0]));
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {period.label}
        {period.current ? ' (so far)' : ''}
      </h2>
      <div className="transparency-table-wrap">
        <table className="transparency-table">
          <caption>Notices and reports received: {period.notices.total}</caption>
          <thead>
            <tr>
              <th scope="col">Reason</th>
              <th scope="col">Received</th>
            </tr>
          </thead>
          <tbody>
            {REPORT_REASONS.map((reason) => (
              <tr key={reason}>
                <th scope="row">{REPORT_REASON_LABELS[reason].label}</th>
                <td>{period.notices.byReason[reason] ?? 0}</td>
              </tr>
            ))}
            {period.notices.bySource &&
              Object.entries(period.notices.bySource).map(([source, count]) => (
                <tr key={`source-${source}`}>
                  <th scope="row">
                    From {source === 'notice' ? 'public notices' : source === 'report' ? 'member and visitor reports' : source}
                  </th>
                  <td>{count}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
      <p>Median time from a report to its resolution: {hoursText(period.medianHoursToAction)}.</p>
      <div className="transparency-table-wrap">
        <table className="transparency-table">
          <caption>
            Actions taken: {period.actions.total} ({period.actions.human} by a person, {period.actions.automated} automated)
          </caption>
          <thead>
            <tr>
              <th scope="col">Action</th>
              <th scope="col">By a person</th>
              <th scope="col">Automated</th>
            </tr>
          </thead>
          <tbody>
            {actions.length === 0 ? (
              <tr>
                <th scope="row">None</th>
                <td>0</td>
                <td>0</td>
              </tr>
            ) : (
              actions.map(([action, counts]) => (
                <tr key={action}>
                  <th scope="row">{actionName(action)}</th>
                  <td>{counts.human}</td>
                  <td>{counts.automated}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="transparency-table-wrap">
        <table className="transparency-table">
          <caption>Appeals received: {period.appeals.received}</caption>
          <thead>
            <tr>
              <th scope="col">Outcome</th>
              <th scope="col">Appeals</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Decision reversed</th>
              <td>{period.appeals.reversed}</td>
            </tr>
            <tr>
              <th scope="row">Decision upheld</th>
              <td>{period.appeals.upheld}</td>
            </tr>
            <tr>
              <th scope="row">Still open</th>
              <td>{period.appeals.open}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>Median time to decide an appeal: {hoursText(period.appeals.medianHoursToDecision)}.</p>
    </section>
  );
}

/**
 * /transparency: the public transparency report, counted from the data
 * when rendered (lib/server/trust/transparency.ts). Public and the same for
 * everyone, so the page cache serves it (lib/site.ts isPublicPagePath).
 */
export default async function TransparencyPage() {
  await connection();
  const { siteName } = getConfig();
  const report = await loadTransparencyReport();
  return (
    <article className="prose">
      <ArticleStructuredData
        path="/transparency"
        headline="Transparency report"
        description={DESCRIPTION}
        dateModified={report.generatedAt.slice(0, 10)}
      />
      <header className="page-header">
        <span className="eyebrow">{siteName} transparency</span>
        <h1>Transparency report</h1>
        <p>
          Every half-year (in UTC), counted from our records when this page is shown: notices and reports by reason, what we did
          about them, how fast, and how appeals turned out. See the{' '}
          <a href="/community-standards#enforcement-and-appeals">Community Standards</a> for how decisions and appeals work.
        </p>
      </header>
      {report.periods.map((period) => (
        <Period key={period.key} period={period} />
      ))}
    </article>
  );
}
