import 'server-only';

import { sql } from 'drizzle-orm';

import { getDb } from '@/lib/db';

import { forgetOldRuns, scheduleNextRun, type RecurringJob } from './jobs/recurring';
import type { JobHandler } from './jobs/worker';
import { logger } from './log';
import { sweepExpiredResumableUploads } from './videos/resumable';

const log = logger('uploads');

/**
 * The embedded database has no autovacuum (PGlite runs no background
 * workers), so without this its planner statistics never follow the data and
 * the visibility map that lets deep list pages use index-only scans is never
 * set. PostgreSQL does this itself. Hourly: on a site the size the embedded
 * database is for, VACUUM takes well under a second, during which other
 * queries wait (PGlite runs one statement at a time).
 */
export const VACUUM_EMBEDDED: RecurringJob = { type: 'vacuum-embedded', everyMs: 60 * 60_000 };

export const vacuumEmbeddedJob: JobHandler = async () => {
  const db = await getDb();
  await scheduleNextRun(db, VACUUM_EMBEDDED);
  await forgetOldRuns(db, VACUUM_EMBEDDED);
  await db.execute(sql`VACUUM (ANALYZE)`);
};

/**
 * Unfinished resumable uploads past RESUMABLE_UPLOAD_EXPIRY_HOURS (decision
 * 026): tus already refuses to continue them; this frees their disk. Hourly,
 * so one is gone at most an hour after it expired.
 */
export const SWEEP_RESUMABLE_UPLOADS: RecurringJob = { type: 'sweep-resumable-uploads', everyMs: 60 * 60_000 };

export const sweepResumableUploadsJob: JobHandler = async () => {
  const db = await getDb();
  await scheduleNextRun(db, SWEEP_RESUMABLE_UPLOADS);
  await forgetOldRuns(db, SWEEP_RESUMABLE_UPLOADS);
  const removed = await sweepExpiredResumableUploads();
  if (removed > 0) log.info({ removed }, `removed ${removed} expired unfinished resumable upload(s)`);
};

export const MAINTENANCE_JOB_HANDLERS: Record<string, JobHandler> = {
  [VACUUM_EMBEDDED.type]: vacuumEmbeddedJob,
  [SWEEP_RESUMABLE_UPLOADS.type]: sweepResumableUploadsJob,
};
