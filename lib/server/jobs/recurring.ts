import 'server-only';

import { sql } from 'drizzle-orm';

import type { Database } from '@/lib/db';

import { enqueue } from './queue';

/**
 * A job that runs every `everyMs`: one job per time slot, whatever the number
 * of processes (the slot is in the dedupe key). Every process queues the
 * current slot at start and every run queues the next slot before it works,
 * so the chain survives restarts and a failed run.
 */
export interface RecurringJob {
  type: string;
  everyMs: number;
}

const slotStart = (job: RecurringJob, at: number) => new Date(Math.floor(at / job.everyMs) * job.everyMs);

/** Queues the run of the slot `at` falls in (due at once when that is now). */
export async function scheduleRecurring(db: Database, job: RecurringJob, at: number = Date.now()): Promise<void> {
  const slot = slotStart(job, at);
  await enqueue(db, job.type, {}, { dedupeKey: `${job.type}:${slot.toISOString()}`, runAt: slot, maxAttempts: 3 });
}

/** Queues the next slot; call first thing in the job's handler. */
export const scheduleNextRun = (db: Database, job: RecurringJob) => scheduleRecurring(db, job, Date.now() + job.everyMs);

/** A recurring job's finished runs pile up (144 a day at 10 minutes); keep a day of them. */
export async function forgetOldRuns(db: Database, job: RecurringJob): Promise<void> {
  await db.execute(sql`DELETE FROM jobs WHERE type = ${job.type} AND status = 'done' AND finished_at < now() - interval '1 day'`);
}
