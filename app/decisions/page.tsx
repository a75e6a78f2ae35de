import type { Metadata } from 'next';
import { connection } from 'next/server';

import { Pagination } from '@/components/admin/Pagination';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { listMyDecisions } from '@/lib/server/trust/statements';
import { firstValues } from '@/lib/search-params';
import { pageMetadata } from '@/lib/seo/metadata';
import { APPEAL_STATUS_LABELS } from '@/lib/trust/statements';
import { decisionListQuerySchema } from '@/lib/validation/trust';

import '@/components/trust/trust.css';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Decisions about you',
    description: 'Every moderation decision about your videos, comments and account, with its reasons and your appeals.',
    path: '/decisions',
    noindex: true,
  });
}

const dateText = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** "Decisions about you" (linked from Settings): each statement of reasons, newest first, and where its appeal stands. */
export default async function DecisionsPage({ searchParams }: Props) {
  await connection();
  const parsed = decisionListQuerySchema.safeParse(firstValues(await searchParams));
  const query = parsed.success ? parsed.data : decisionListQuerySchema.parse({});
  const { decisions, pagination } = await forPage(listMyDecisions(await pageActor(), query), '/decisions');
  return (
    <>
      <WebSiteStructuredData path="/decisions" name="Decisions about you" />
      <header className="page-header">
        <span className="eyebrow">Your account</span>
        <h1>Decisions about you</h1>
        <p>
          When we reject or remove something of yours, or restrict your account, we say why here. You can appeal each decision
          once.
        </p>
      </header>
      {decisions.length === 0 ? (
        <div className="empty-state">
          <p>No decisions about you. Nothing of yours has been rejected, removed or restricted.</p>
        </div>
      ) : (
        <ol className="decision-list" aria-label="Decisions about you">
          {decisions.map((decision) => (
            <li key={decision._id}>
              <a href={`/decisions/${decision._id}`}>
                {decision.actionLabel}
                {decision.targetLabel ? `: “${decision.targetLabel}”` : ''}
              </a>
              <p>
                {dateText(decision.createdAt)} · {decision.groundInfo?.label ?? decision.ground} ·{' '}
                {decision.appeal
                  ? `Appeal: ${APPEAL_STATUS_LABELS[decision.appeal.status].toLowerCase()}`
                  : decision.appealRefusal
                    ? 'Cannot be appealed now'
                    : `Can be appealed until ${dateText(decision.appealUntil)}`}
              </p>
            </li>
          ))}
        </ol>
      )}
      <Pagination path="/decisions" params={{}} page={query.page} hasMore={pagination.hasMore} />
    </>
  );
}
