import 'server-only';

import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';

import { getDb, type Database } from '@/lib/db';
import { paymentEvents } from '@/lib/db/schema';

import { applyProcessorEvent, PaymentRejected } from '../vip/lifecycle';

import type { PaymentProcessor } from './processor';
import { logger } from '@/lib/server/log';

const log = logger('payments');

export interface PostbackAnswer {
  status: 200 | 400 | 401;
  /** Plain text: processors read "OK" as delivered. */
  body: string;
}

const OK: PostbackAnswer = { status: 200, body: 'OK' };

/**
 * Handles one postback: only a correctly signed one changes anything.
 *
 * - Bad or missing signature: 401, logged to the console only (anyone can
 *   send requests; they must not fill the table).
 * - Signed but wrong (another shop, unknown checkout or sale, different
 *   price): 400, logged in payment_events as rejected with the reason.
 * - Otherwise the event is logged once under its dedupe key and applied in
 *   the same transaction; a replay finds the key taken and answers OK
 *   without doing anything.
 */
export async function receivePostback(
  processor: PaymentProcessor,
  params: Readonly<Record<string, string>>,
): Promise<PostbackAnswer> {
  const reading = processor.readPostback(params);
  if (!reading.ok && reading.status === 401) {
    // The values are not logged: the point is to notice probing, not to store what a stranger sent.
    log.warn(
      `${processor.name} postback refused (401): ${reading.reason}; saleID ${JSON.stringify(params.saleID ?? null)}, keys ${Object.keys(params).sort().join(',')}`,
    );
    return { status: 401, body: 'Invalid signature' };
  }
  if (!reading.ok) {
    await logRejected(await getDb(), processor, {
      name: reading.name,
      saleId: reading.saleId,
      payload: reading.payload,
      reason: reading.reason,
    });
    return { status: 400, body: `Rejected: ${reading.reason}` };
  }

  const { event } = reading;
  const db = await getDb();
  try {
    return await db.transaction(async (database) => {
      // Claim the dedupe key first: a concurrent identical delivery waits on it, then finds it taken.
      const [claimed] = await database
        .insert(paymentEvents)
        .values({
          processor: processor.name,
          dedupeKey: event.dedupeKey,
          event: event.name,
          saleId: event.saleId,
          priceAmount: event.priceAmount,
          priceCurrency: event.priceCurrency,
          outcome: 'applied',
          payload: event.payload,
        })
        .onConflictDoNothing({ target: paymentEvents.dedupeKey })
        .returning({ id: paymentEvents.id });
      if (!claimed) return OK; // a replay: already handled
      const result = await applyProcessorEvent(database, processor, event);
      await database
        .update(paymentEvents)
        .set({ outcome: result.outcome, detail: result.detail, userId: result.userId, entitlementId: result.entitlementId })
        .where(eq(paymentEvents.id, claimed.id));
      return OK;
    });
  } catch (error) {
    if (!(error instanceof PaymentRejected)) throw error;
    await logRejected(db, processor, {
      name: event.name,
      saleId: event.saleId,
      payload: event.payload,
      reason: error.message,
      userId: error.userId,
    });
    return { status: 400, body: `Rejected: ${error.message}` };
  }
}

/**
 * A rejected event gets a key of its own, not the event's dedupe key: a
 * processor's retry after we fixed the cause (say the sale's postback arrived
 * late) must still be applied. Only signed deliveries reach this, so the
 * table cannot be flooded by strangers.
 */
async function logRejected(
  db: Database,
  processor: Pick<PaymentProcessor, 'name'>,
  rejected: { name: string; saleId: string | null; payload: Record<string, string>; reason: string; userId?: string | null },
): Promise<void> {
  log.warn(
    `${processor.name} postback rejected (400): ${rejected.reason}; event ${rejected.name}, saleID ${JSON.stringify(rejected.saleId)}`,
  );
  await db.insert(paymentEvents).values({
    processor: processor.name,
    dedupeKey: `${processor.name}:rejected:${randomUUID()}`,
    event: rejected.name,
    saleId: rejected.saleId,
    userId: rejected.userId ?? null,
    priceAmount: rejected.payload.priceAmount ?? null,
    priceCurrency: rejected.payload.priceCurrency ?? null,
    outcome: 'rejected',
    detail: rejected.reason,
    payload: rejected.payload,
  });
}
