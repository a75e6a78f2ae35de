import 'server-only';

import { and, eq, sql } from 'drizzle-orm';

import type { Database } from '@/lib/db';
import { jobs, type Job } from '@/lib/db/schema';

export interface EnqueueOptions {
  /** A second enqueue with the same key is ignored: enqueueing is idempotent. */
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/** Adds a job; returns it, or null when a job with the same dedupe key already exists. */
export async function enqueue(
  db: Database,
  type: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<Job | null> {
  const [job] = await db
    .insert(jobs)
    .values({ type, payload, dedupeKey: options.dedupeKey, runAt: options.runAt, maxAttempts: options.maxAttempts })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning();
  return job ?? null;
}

/**
 * Takes the next due job of the given types for this worker, or null. Jobs
 * whose lease ran out (their worker died) are due again. SKIP LOCKED lets
 * many workers claim at once without waiting on each other or sharing a job.
 */
export async function claim(db: Database, workerId: string, types: readonly string[], leaseMs: number): Promise<Job | null> {
  if (types.length === 0) return null;
  const typeList = sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    UPDATE ${jobs}
    SET status = 'running',
        locked_by = ${workerId},
        locked_until = now() + ${`${leaseMs} milliseconds`}::interval,
        attempts = ${jobs.attempts} + 1,
        claimed_at = now(),
        updated_at = now()
    WHERE ${jobs.id} = (
      SELECT id FROM ${jobs}
      WHERE type IN (${typeList})
        AND ((status = 'queued' AND run_at <= now()) OR (status = 'running' AND locked_until < now()))
      ORDER BY run_at
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`);
  // node-postgres answers { rows }, PGlite too; keep both shapes working.
  const shaped = result as unknown as { rows?: { id: string }[] } | { id: string }[];
  const rows = Array.isArray(shaped) ? shaped : (shaped.rows ?? []);
  const id = rows[0]?.id;
  if (!id) return null;
  const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
  return job ?? null;
}

/** Extends the lease of a long job; false when this worker no longer holds it. */
export async function heartbeat(db: Database, job: Pick<Job, 'id'>, workerId: string, leaseMs: number): Promise<boolean> {
  const updated = await db
    .update(jobs)
    .set({ lockedUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval`, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return updated.length > 0;
}

export async function complete(db: Database, job: Pick<Job, 'id'>, workerId: string): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'done', lockedBy: null, lockedUntil: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
}

/** Delay before attempt n+1: 5 s, 10 s, 20 s … capped at 10 minutes. */
export function backoffMs(attempts: number, baseMs = 5_000): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 10 * 60_000);
}

/**
 * An error with its causes ("message ← cause ← …"): the full detail for
 * last_error, which only admins see. Services keep what members see short
 * and fixed, and put the detail in a cause.
 */
export function describeFailure(error: unknown): string {
  const parts: string[] = [];
  for (
    let current: unknown = error;
    current !== undefined && parts.length < 5;
    current = current instanceof Error ? current.cause : undefined
  ) {
    parts.push(current instanceof Error ? current.message : String(current));
  }
  return parts.join(' ← ');
}

/** Records a failure: queued again after a backoff, or failed for good once attempts are used up. Returns the new status. */
export async function fail(
  db: Database,
  job: Pick<Job, 'id' | 'attempts' | 'maxAttempts'>,
  workerId: string,
  error: unknown,
  baseBackoffMs?: number,
): Promise<'queued' | 'failed'> {
  const reason = describeFailure(error).slice(0, 2000);
  const final = job.attempts >= job.maxAttempts;
  await db
    .update(jobs)
    .set(
      final
        ? {
            status: 'failed',
            lastError: reason,
            lockedBy: null,
            lockedUntil: null,
            finishedAt: sql`now()`,
            updatedAt: sql`now()`,
          }
        : {
            status: 'queued',
            lastError: reason,
            lockedBy: null,
            lockedUntil: null,
            runAt: sql`now() + ${`${backoffMs(job.attempts, baseBackoffMs)} milliseconds`}::interval`,
            updatedAt: sql`now()`,
          },
    )
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
  return final ? 'failed' : 'queued';
}
