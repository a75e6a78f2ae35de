import 'server-only';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';

import { SEED_DEMO_JOB } from '../demo/seed-demo';
import { logger } from '../log';

import { forgetOldRuns, scheduleNextRun, scheduleRecurring, type RecurringJob } from './recurring';
import type { JobHandler } from './worker';

const log = logger('jobs');

/**
 * Keeps the jobs table small (decision 023): finished (done) jobs go
 * JOB_RETENTION_DAYS after they finished, failed ones
 * JOB_FAILED_RETENTION_DAYS after they gave up (longer, so an operator has
 * time to look; a retried job is queued again and is no longer failed).
 * Queued and running jobs are never touched. The seed-demo job stays: its
 * row is what makes the demo content a once-per-database thing.
 */
export const SWEEP_JOBS: RecurringJob = { type: 'sweep-jobs', everyMs: 60 * 60_000 };

/** Rows per DELETE, so a first sweep of a large backlog never holds one long transaction. */
const BATCH = 5_000;

/** Deletes rows matching `where` in batches; returns how many went. */
async function deleteInBatches(
  db: Database,
  table: 'jobs' | 'rate_limits',
  key: 'id' | 'key',
  where: ReturnType<typeof sql>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await queryRows<{ k: string }>(
      db,
      sql`DELETE FROM ${sql.identifier(table)} WHERE ${sql.identifier(key)} IN (SELECT ${sql.identifier(key)} FROM ${sql.identifier(table)} WHERE ${where} LIMIT ${BATCH}) RETURNING ${sql.identifier(key)} AS k`,
    );
    total += gone.length;
    if (gone.length < BATCH) return total;
  }
}

/** Deletes done and failed jobs past their retention; returns how many of each went. */
export async function sweepJobs(
  db: Database,
  { retentionDays, failedRetentionDays } = getConfig().jobs,
): Promise<{ done: number; failed: number }> {
  const kept = sql`type <> ${SEED_DEMO_JOB}`;
  const done = await deleteInBatches(
    db,
    'jobs',
    'id',
    sql`status = 'done' AND finished_at < now() - make_interval(days => ${retentionDays}) AND ${kept}`,
  );
  const failed = await deleteInBatches(
    db,
    'jobs',
    'id',
    sql`status = 'failed' AND finished_at < now() - make_interval(days => ${failedRetentionDays}) AND ${kept}`,
  );
  return { done, failed };
}

export const sweepJobsJob: JobHandler = async () => {
  const db = await getDb();
  await scheduleNextRun(db, SWEEP_JOBS);
  const { done, failed } = await sweepJobs(db);
  await forgetOldRuns(db, SWEEP_JOBS);
  if (done + failed > 0) log.info(`deleted ${done} finished and ${failed} failed job(s) past their retention`);
};

/**
 * Rate-limit counters (lib/server/rate-limit.ts) are rows with an expiry;
 * the limiter overwrites a key's row when it comes back, but keys that never
 * come back (one address, one email) would stay forever. An expired row
 * counts nothing, so deleting it changes no limit.
 */
export const SWEEP_RATE_LIMITS: RecurringJob = { type: 'sweep-rate-limits', everyMs: 60 * 60_000 };

/** Deletes rate-limit rows whose window has ended; returns how many went. Rows without an expiry are kept. */
export const sweepRateLimits = (db: Database) => deleteInBatches(db, 'rate_limits', 'key', sql`expire < now()`);

export const sweepRateLimitsJob: JobHandler = async () => {
  const db = await getDb();
  await scheduleNextRun(db, SWEEP_RATE_LIMITS);
  const removed = await sweepRateLimits(db);
  await forgetOldRuns(db, SWEEP_RATE_LIMITS);
  if (removed > 0) log.info(`deleted ${removed} expired counter(s)`);
};

export const RETENTION_JOB_HANDLERS: Record<string, JobHandler> = {
  [SWEEP_JOBS.type]: sweepJobsJob,
  [SWEEP_RATE_LIMITS.type]: sweepRateLimitsJob,
};

/**
 * Queues the current slot of each sweep whose type `types` includes (every
 * process at start: the web process for all, `npm run worker` for the types
 * it takes); one run per slot whatever the number of processes.
 */
export async function scheduleRetentionSweeps(
  db: Database,
  types: readonly string[] = Object.keys(RETENTION_JOB_HANDLERS),
): Promise<void> {
  for (const job of [SWEEP_JOBS, SWEEP_RATE_LIMITS]) if (types.includes(job.type)) await scheduleRecurring(db, job);
}
