import 'server-only';

import { sql } from 'drizzle-orm';

import { getDb, queryRows, type Database } from '@/lib/db';
import { paymentEvents } from '@/lib/db/schema';

import { forgetOldRuns, scheduleNextRun, scheduleRecurring, type RecurringJob } from '../jobs/recurring';
import type { JobHandler } from '../jobs/worker';

import { syncVipUntil } from './entitlements';
import { logger } from '@/lib/server/log';

const log = logger('vip');

export const EXPIRE_VIP_JOB = 'expire-vip';
/** How often expired entitlements are closed. isVIP itself needs no job (it compares vip_until with now); this keeps statuses and the log true. */
export const EXPIRE_VIP_EVERY_MS = 10 * 60_000;

/**
 * Marks every entitlement whose paid period has ended as expired, logs each
 * once (dedupe key per entitlement), and recomputes its member's vip_until.
 * Running it twice changes nothing the second time.
 */
export async function expireEntitlements(db: Database, now: Date = new Date()): Promise<{ expired: number }> {
  return db.transaction(async (database) => {
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

const EXPIRE_VIP: RecurringJob = { type: EXPIRE_VIP_JOB, everyMs: EXPIRE_VIP_EVERY_MS };

/** Queues the expiry run of the slot `at` falls in; every process calls it at start (see lib/server/jobs/recurring.ts). */
export const scheduleVipExpiry = (db: Database, at: number = Date.now()) => scheduleRecurring(db, EXPIRE_VIP, at);

/** expire-vip: queues the next slot first (so a failure cannot end the chain), then expires, then forgets old finished runs. */
export const expireVipJob: JobHandler = async () => {
  const db = await getDb();
  await scheduleNextRun(db, EXPIRE_VIP);
  const { expired } = await expireEntitlements(db);
  if (expired > 0) log.info(`${expired} VIP period${expired === 1 ? '' : 's'} ended`);
  await forgetOldRuns(db, EXPIRE_VIP);
};

export const VIP_JOB_HANDLERS: Record<string, JobHandler> = {
  [EXPIRE_VIP_JOB]: expireVipJob,
};
