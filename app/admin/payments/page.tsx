import type { Metadata } from 'next';

import { Pagination } from '@/components/admin/Pagination';
import { listPaymentEvents } from '@/lib/server/admin/payments';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { firstValues } from '@/lib/search-params';
import { pageMetadata } from '@/lib/seo/metadata';
import { paymentEventsQuerySchema } from '@/lib/validation/admin';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Payments',
    description: 'Every payment event: postbacks from the processor and manual VIP grants.',
    path: '/admin/payments',
    noindex: true,
  });
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
const OUTCOME_CLASS = { applied: 'admin-badge-vip', ignored: '', rejected: 'admin-badge-banned' } as const;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The payment log, newest first, so an operator can see what each postback did and why one was refused. */
export default async function PaymentsPage({ searchParams }: Props) {
  const raw = await searchParams;
  const parsed = paymentEventsQuerySchema.safeParse({ page: firstValues(raw).page });
  const query = parsed.success ? parsed.data : paymentEventsQuerySchema.parse({});
  const { events, pagination } = await forPage(listPaymentEvents(await pageActor(), query), '/admin/payments');
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Payments</h1>
        <p>
          Every event from the payment processor (sales, renewals, cancellations, refunds, chargebacks) and every manual VIP grant
          or revocation. A refused postback says why. Setting up payments is described in docs/configuration.md (Verotel FlexPay).
        </p>
      </header>
      {events.length === 0 ? (
        <div className="empty-state">
          <p>No payment events yet.</p>
        </div>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table admin-table-stack">
            <caption className="visually-hidden">Payment events</caption>
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Event</th>
                <th scope="col">Member</th>
                <th scope="col">Amount</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event._id}>
                  <td data-label="When">
                    <time dateTime={event.receivedAt}>{dateFormat.format(new Date(event.receivedAt))}</time>
                  </td>
                  <td data-label="Event">
                    {event.processor} · {event.event}
                    {event.saleId ? ` · sale ${event.saleId}` : ''}
                  </td>
                  <td data-label="Member">
                    {event.member ? (
                      <a href={`/admin/members/${event.member._id}`}>{event.member.username}</a>
                    ) : (
                      <span className="admin-muted">unknown</span>
                    )}
                  </td>
                  <td data-label="Amount">{event.priceAmount ? `${event.priceAmount} ${event.priceCurrency ?? ''}` : '—'}</td>
                  <td data-label="Outcome">
                    <span className={`admin-badge ${OUTCOME_CLASS[event.outcome]}`}>{event.outcome}</span>
                    {event.detail && <div className="admin-muted">{event.detail}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination path="/admin/payments" params={{}} page={query.page} hasMore={pagination.hasMore} />
    </>
  );
}
