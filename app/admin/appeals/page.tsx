import type { Metadata } from 'next';

import { AdminAction } from '@/components/admin/AdminAction';
import { Pagination } from '@/components/admin/Pagination';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { listAppeals } from '@/lib/server/trust/appeals';
import { firstValues } from '@/lib/search-params';
import { pageMetadata } from '@/lib/seo/metadata';
import type { AdminAppealDto } from '@/lib/trust/statements';
import { APPEAL_LIST_STATUSES, APPEAL_MESSAGES, APPEAL_NOTE_MAX, appealListQuerySchema } from '@/lib/validation/trust';

import '@/components/trust/trust.css';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Appeals',
    description: 'Appeals against moderation decisions, decided by an admin who did not make the decision.',
    path: '/admin/appeals',
    noindex: true,
  });
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
const STATUS_LABELS = { open: 'Open', upheld: 'Upheld', reversed: 'Reversed' } as const;

function AppealCard({ appeal }: { appeal: AdminAppealDto }) {
  const { decision } = appeal;
  const headingId = `appeal-${appeal._id}`;
  return (
    <article className="admin-report" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {decision.actionLabel.replace(/^Your /, 'A ')}
        {decision.targetLabel ? `: “${decision.targetLabel}”` : ''}{' '}
        <span className="admin-badges">{decision.automated && <span className="admin-badge">Automated decision</span>}</span>
      </h3>
      <p>
        Ground: {decision.groundInfo?.reference ?? decision.ground}. Decided {dateFormat.format(new Date(decision.createdAt))} by{' '}
        {appeal.decidedByOriginal ? appeal.decidedByOriginal.username : 'the system'} ({decision.sourceLabel.toLowerCase()}).{' '}
        <a href={`/decisions/${decision._id}`}>Statement of reasons</a>
      </p>
      {decision.explanation && <p className="admin-description statement-quote">Reasons given: “{decision.explanation}”</p>}
      <p className="admin-description statement-quote">
        Appeal by{' '}
        {appeal.appellant ? (
          <a href={`/admin/members/${appeal.appellant._id}`}>{appeal.appellant.username}</a>
        ) : (
          'a former member'
        )}
        , {dateFormat.format(new Date(appeal.createdAt))}: “{appeal.statement}”
      </p>
      {appeal.status !== 'open' && (
        <p className="admin-muted statement-quote">
          {STATUS_LABELS[appeal.status]} {appeal.decidedAt ? dateFormat.format(new Date(appeal.decidedAt)) : ''}:{' '}
          {appeal.outcomeNote}
        </p>
      )}
      {appeal.status === 'open' &&
        (appeal.mayDecide ? (
          <div className="admin-actions">
            <AdminAction
              label="Reverse…"
              confirmLabel="Reverse the decision"
              method="PATCH"
              url={`/api/admin/appeals/${appeal._id}`}
              body={{ outcome: 'reverse' }}
              fields={[
                {
                  name: 'note',
                  label: 'Note for the member (why the decision was wrong)',
                  kind: 'textarea',
                  maxLength: APPEAL_NOTE_MAX,
                  requiredMessage: APPEAL_MESSAGES.noteRequired,
                },
              ]}
              done="Decision reversed; the member has been told."
            />
            <AdminAction
              label="Uphold…"
              confirmLabel="Uphold the decision"
              danger
              method="PATCH"
              url={`/api/admin/appeals/${appeal._id}`}
              body={{ outcome: 'uphold' }}
              fields={[
                {
                  name: 'note',
                  label: 'Note for the member (why the decision stands)',
                  kind: 'textarea',
                  maxLength: APPEAL_NOTE_MAX,
                  requiredMessage: APPEAL_MESSAGES.noteRequired,
                },
              ]}
              done="Decision upheld; the member has been told."
            />
          </div>
        ) : (
          <p className="admin-muted">You made this decision, so another admin must decide its appeal.</p>
        ))}
    </article>
  );
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The appeal queue: open appeals oldest first; an admin cannot decide an appeal of their own decision. */
export default async function AppealsPage({ searchParams }: Props) {
  const parsed = appealListQuerySchema.safeParse(firstValues(await searchParams));
  const query = parsed.success ? parsed.data : appealListQuerySchema.parse({});
  const { appeals, counts, pagination } = await forPage(listAppeals(await pageActor(), query), '/admin/appeals');
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Appeals</h1>
        <p>
          Members appeal decisions about their videos, comments and accounts. An admin who did not make the decision reads the
          appeal and upholds or reverses it with a note the member sees. Reversing makes a video public again (if nothing else
          blocks it) and lifts a ban; a deleted comment cannot come back.
        </p>
      </header>
      <nav className="admin-tabs" aria-label="Appeal lists">
        {APPEAL_LIST_STATUSES.map((status) => (
          <a
            key={status}
            className="admin-tab"
            href={`/admin/appeals?status=${status}`}
            aria-current={status === query.status ? 'page' : undefined}
          >
            {STATUS_LABELS[status]} <span className="admin-tab-count">{counts[status]}</span>
          </a>
        ))}
      </nav>
      {appeals.length === 0 ? (
        <div className="empty-state">
          <p>
            {query.status === 'open'
              ? 'No open appeals. Nothing needs a decision.'
              : `No ${STATUS_LABELS[query.status].toLowerCase()} appeals yet.`}
          </p>
        </div>
      ) : (
        <ol className="admin-list" aria-label={`${STATUS_LABELS[query.status]} appeals`}>
          {appeals.map((appeal) => (
            <li key={appeal._id}>
              <AppealCard appeal={appeal} />
            </li>
          ))}
        </ol>
      )}
      <Pagination path="/admin/appeals" params={{ status: query.status }} page={query.page} hasMore={pagination.hasMore} />
    </>
  );
}
