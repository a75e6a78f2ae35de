import 'server-only';

import { sql } from 'drizzle-orm';

import { getDb, queryRows, type Database } from '@/lib/db';
import { paymentEvents } from '@/lib/db/schema';

import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';

import { syncVipUntil } from './entitlements';

export const EXPIRE_VIP_JOB = 'expire-vip';
/** How often expired entitlements are closed. isVIP itself needs no job (it compares vip_until with now); this keeps statuses and the log true. */
export const EXPIRE_VIP_EVERY_MS = 10 * 60_000;

/**
 * Marks every entitlement whose paid period has ended as expired, logs each
 * once (dedupe key per entitlement), and recomputes its member's vip_until.
 * Running it twice changes nothing the second time.
 */
export async function expireEntitlements(db: Database, now: Date = new Date()): Promise<{ expired: number }> {
  return db.transaction(async (tx) => {
    const database = tx as unknown as Database;
    const ended = await queryRows<{ id: string; user_id: string; source: string }>(
      database,
      sql`UPDATE entitlements SET status = 'expired', ended_at = ${now.toISOString()}::timestamptz, updated_at = now()
          WHERE status IN ('active', 'cancelled') AND period_end <= ${now.toISOString()}::timestamptz
          RETURNING id, user_id, source`,
    );
    for (const entitlement of ended) {
      await database
        .insert(paymentEvents)
        .values({
          processor: entitlement.source,
          dedupeKey: `${entitlement.source}:expire:${entitlement.id}`,
          event: 'expire',
          userId: entitlement.user_id,
          entitlementId: entitlement.id,
          outcome: 'applied',
          detail: 'The paid period ended',
        })
        .onConflictDoNothing({ target: paymentEvents.dedupeKey });
    }
    for (const userId of new Set(ended.map((entitlement) => entitlement.user_id))) await syncVipUntil(database, userId);
    return { expired: ended.length };
  });
}

/** The start of the time slot `at` falls in; one job per slot, whatever the number of processes. */
const slotStart = (at: number) => new Date(Math.floor(at / EXPIRE_VIP_EVERY_MS) * EXPIRE_VIP_EVERY_MS);

/**
 * Queues the expiry run of the slot `at` falls in (due at once when that is
 * now). Every process calls it at start and every run queues the next slot,
 * so the chain survives restarts and a failed run; the dedupe key keeps it
 * to one job per slot.
 */
export async function scheduleVipExpiry(db: Database, at: number = Date.now()): Promise<void> {
  const slot = slotStart(at);
  await enqueue(db, EXPIRE_VIP_JOB, {}, { dedupeKey: `${EXPIRE_VIP_JOB}:${slot.toISOString()}`, runAt: slot, maxAttempts: 3 });
}

/** expire-vip: queues the next slot first (so a failure cannot end the chain), then expires, then forgets old finished runs. */
export const expireVipJob: JobHandler = async () => {
  const db = await getDb();
  await scheduleVipExpiry(db, Date.now() + EXPIRE_VIP_EVERY_MS);
  const { expired } = await expireEntitlements(db);
  if (expired > 0) console.log(`[vip] ${expired} VIP period${expired === 1 ? '' : 's'} ended`);
  // 144 runs a day would otherwise pile up in the jobs table.
  await db.execute(sql`DELETE FROM jobs WHERE type = ${EXPIRE_VIP_JOB} AND status = 'done' AND finished_at < now() - interval '1 day'`);
};

export const VIP_JOB_HANDLERS: Record<string, JobHandler> = {
  [EXPIRE_VIP_JOB]: expireVipJob,
};
