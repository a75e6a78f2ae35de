import 'server-only';

import { sql } from 'drizzle-orm';

import { getDb, queryRows } from '@/lib/db';
import { requireAdmin, type Actor } from '../auth/actor';

export interface PaymentEventDto {
  _id: string;
  processor: string;
  event: string;
  outcome: 'applied' | 'ignored' | 'rejected';
  detail: string | null;
  saleId: string | null;
  member: { _id: string; username: string } | null;
  priceAmount: string | null;
  priceCurrency: string | null;
  receivedAt: string;
}

/** The payment log for operators, newest first: what each postback or manual grant did, and why one was refused. */
export async function listPaymentEvents(
  actor: Actor,
  query: { page: number; limit: number },
): Promise<{ events: PaymentEventDto[]; pagination: { page: number; limit: number; hasMore: boolean } }> {
  requireAdmin(actor);
  const db = await getDb();
  const rows = await queryRows<{
    id: string;
    processor: string;
    event: string;
    outcome: PaymentEventDto['outcome'];
    detail: string | null;
    sale_id: string | null;
    user_id: string | null;
    username: string | null;
    price_amount: string | null;
    price_currency: string | null;
    received_at: Date | string;
  }>(
    db,
    sql`SELECT e.id, e.processor, e.event, e.outcome, e.detail, e.sale_id, e.user_id, u.username, e.price_amount, e.price_currency, e.received_at
        FROM payment_events e LEFT JOIN users u ON u.id = e.user_id
        ORDER BY e.received_at DESC, e.id DESC
        LIMIT ${query.limit + 1} OFFSET ${(query.page - 1) * query.limit}`,
  );
  return {
    events: rows.slice(0, query.limit).map((row) => ({
      _id: row.id,
      processor: row.processor,
      event: row.event,
      outcome: row.outcome,
      detail: row.detail,
      saleId: row.sale_id,
      member: row.user_id && row.username ? { _id: row.user_id, username: row.username } : null,
      priceAmount: row.price_amount,
      priceCurrency: row.price_currency,
      receivedAt: new Date(row.received_at).toISOString(),
    })),
    pagination: { page: query.page, limit: query.limit, hasMore: rows.length > query.limit },
  };
}
