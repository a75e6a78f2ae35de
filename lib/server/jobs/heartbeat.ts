import 'server-only';

import { eq, gt, lt, sql } from 'drizzle-orm';

import type { Database } from '@/lib/db';
import { workerHeartbeats } from '@/lib/db/schema';

/** How often a worker records that it is alive, while it polls and while it runs a job. */
export const HEARTBEAT_MS = 10_000;

/** A worker not seen for this long counts as gone for GET /api/ready (a few missed beats). */
export const WORKER_SEEN_WITHIN_MS = 60_000;

/** Records that worker `workerId` polled or worked just now. */
export async function recordHeartbeat(db: Database, workerId: string, jobTypes: readonly string[]): Promise<void> {
  await db
    .insert(workerHeartbeats)
    .values({ workerId, jobTypes: [...jobTypes] })
    .onConflictDoUpdate({ target: workerHeartbeats.workerId, set: { seenAt: sql`now()` } });
}

/** A worker that stops cleanly takes its row away; rows of killed workers are dropped after a day. */
export async function removeHeartbeat(db: Database, workerId: string): Promise<void> {
  await db.delete(workerHeartbeats).where(eq(workerHeartbeats.workerId, workerId));
  await db.delete(workerHeartbeats).where(lt(workerHeartbeats.seenAt, sql`now() - interval '1 day'`));
}

/** Workers seen within the window, newest first. */
export async function recentWorkers(db: Database, withinMs: number = WORKER_SEEN_WITHIN_MS) {
  return db
    .select({ workerId: workerHeartbeats.workerId, jobTypes: workerHeartbeats.jobTypes, seenAt: workerHeartbeats.seenAt })
    .from(workerHeartbeats)
    .where(gt(workerHeartbeats.seenAt, sql`now() - ${`${withinMs} milliseconds`}::interval`));
}
