import 'server-only';

import { sql, type SQL } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';
import { adminAuditLog } from '@/lib/db/schema';
import { wakeWorkers } from '@/lib/events';
import type { JobListState } from '@/lib/validation/jobs';

import { recordAdminAction } from '../admin/audit';
import { requireAdmin, type Actor } from '../auth/actor';
import { ApiError, conflict } from '../errors';

/**
 * Jobs operators can see and act on (decision 023): the admin page
 * /admin/jobs and `npm run jobs` read and retry through the same functions.
 * The `…ForAdmin` services check the caller; the CLI, run by someone who
 * already holds the database credentials, calls the plain ones.
 */

export { JOB_LIST_STATES, type JobListState } from '@/lib/validation/jobs';

export interface JobTarget {
  /** Plain text, e.g. 'Video “My clip”' (rendered as text, never HTML). */
  label: string;
  href: string | null;
}

export interface JobRow {
  id: string;
  type: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  stuck: boolean;
  attempts: number;
  maxAttempts: number;
  /** The full error of the last failed attempt (paths, tool output): admins and operators only. */
  lastError: string | null;
  target: JobTarget | null;
  createdAt: string;
  runAt: string;
  claimedAt: string | null;
  lockedBy: string | null;
  lockedUntil: string | null;
  finishedAt: string | null;
}

export interface JobCounts {
  /** Per job type, how many are in each state; `stuck` is a part of `running`. */
  byType: { type: string; queued: number; running: number; stuck: number; done: number; failed: number }[];
  totals: { queued: number; running: number; stuck: number; done: number; failed: number };
}

/** A running job nobody is working on (its lease ran out) or that has run longer than JOB_STUCK_MINUTES. */
const stuckCondition = (stuckMinutes: number) =>
  sql`(j.status = 'running' AND (j.locked_until < now() OR j.claimed_at < now() - make_interval(mins => ${stuckMinutes})))`;

function stateCondition(state: JobListState, stuckMinutes: number): SQL {
  switch (state) {
    case 'failed':
      return sql`j.status = 'failed'`;
    case 'stuck':
      return stuckCondition(stuckMinutes);
    case 'retrying':
      return sql`(j.status = 'queued' AND j.last_error IS NOT NULL)`;
    case 'queued':
      return sql`j.status = 'queued'`;
    case 'running':
      return sql`j.status = 'running'`;
  }
}

/** Newest trouble first: failed by when they gave up, the rest by when they were due. */
const ORDER: Record<JobListState, SQL> = {
  failed: sql`j.finished_at DESC NULLS LAST, j.id`,
  stuck: sql`j.claimed_at NULLS FIRST, j.id`,
  retrying: sql`j.run_at, j.id`,
  queued: sql`j.run_at, j.id`,
  running: sql`j.claimed_at NULLS FIRST, j.id`,
};

const UUID_TEXT = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** A payload field as a uuid, or null when it is missing or not one (never a cast error). */
const payloadUuid = (field: string) => sql`(CASE WHEN j.payload->>${field} ~ ${UUID_TEXT} THEN (j.payload->>${field})::uuid END)`;

interface RawJob {
  id: string;
  type: string;
  status: JobRow['status'];
  stuck: boolean;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  created_at: Date | string;
  run_at: Date | string;
  claimed_at: Date | string | null;
  locked_by: string | null;
  locked_until: Date | string | null;
  finished_at: Date | string | null;
  video_title: string | null;
  stream_video_id: string | null;
  member_id: string | null;
  member_username: string | null;
  export_id: string | null;
  decision_id: string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * What a job works on, from the ids in its payload: a video, a member's data
 * export, a member, a statement of reasons. Payload fields are never shown
 * as they are (a mail job's payload is the mail).
 */
function targetOf(row: RawJob): JobTarget | null {
  if (row.stream_video_id)
    return {
      label: `Video “${row.video_title ?? row.stream_video_id}”`,
      href: `/video/${encodeURIComponent(row.stream_video_id)}`,
    };
  if (row.export_id && row.member_id)
    return { label: `Data export of ${row.member_username ?? 'a deleted member'}`, href: `/admin/members/${row.member_id}` };
  if (row.member_id && row.member_username)
    return { label: `Member ${row.member_username}`, href: `/admin/members/${row.member_id}` };
  if (row.decision_id) return { label: 'Statement of reasons', href: `/decisions/${row.decision_id}` };
  return null;
}

function toRow(row: RawJob): JobRow {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    stuck: row.stuck,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    lastError: row.last_error,
    target: targetOf(row),
    createdAt: iso(row.created_at)!,
    runAt: iso(row.run_at)!,
    claimedAt: iso(row.claimed_at),
    lockedBy: row.locked_by,
    lockedUntil: iso(row.locked_until),
    finishedAt: iso(row.finished_at),
  };
}

/** Jobs with their targets (what their payload's ids name), the `stuck` flag computed as the lists do. */
function selectJobs(db: Database, where: SQL, order: SQL, limit: number, stuckMinutes: number): Promise<RawJob[]> {
  return queryRows<RawJob>(
    db,
    sql`SELECT j.id, j.type, j.status, ${stuckCondition(stuckMinutes)} AS stuck, j.attempts, j.max_attempts, j.last_error,
               j.created_at, j.run_at, j.claimed_at, j.locked_by, j.locked_until, j.finished_at,
               v.title AS video_title, v.stream_video_id, u.id AS member_id, u.username AS member_username,
               e.id AS export_id, ${payloadUuid('decisionId')} AS decision_id
        FROM jobs j
        LEFT JOIN videos v ON v.id = ${payloadUuid('videoId')}
        LEFT JOIN data_exports e ON e.id = ${payloadUuid('exportId')}
        LEFT JOIN users u ON u.id = COALESCE(${payloadUuid('userId')}, e.user_id)
        WHERE ${where}
        ORDER BY ${order}
        LIMIT ${limit}`,
  );
}

/** Jobs in one state with their targets, at most `limit`, plus whether there are more. */
export async function readJobs(
  db: Database,
  state: JobListState,
  { limit = 50, stuckMinutes = getConfig().jobs.stuckMinutes } = {},
): Promise<{ jobs: JobRow[]; hasMore: boolean }> {
  const rows = await selectJobs(db, stateCondition(state, stuckMinutes), ORDER[state], limit + 1, stuckMinutes);
  return { jobs: rows.slice(0, limit).map(toRow), hasMore: rows.length > limit };
}

/** How many jobs of each type are in each state (the page's summary, `npm run jobs -- list`'s header). */
export async function readJobCounts(db: Database, { stuckMinutes = getConfig().jobs.stuckMinutes } = {}): Promise<JobCounts> {
  const rows = await queryRows<{ type: string; queued: number; running: number; stuck: number; done: number; failed: number }>(
    db,
    sql`SELECT j.type,
               count(*) FILTER (WHERE j.status = 'queued')::int AS queued,
               count(*) FILTER (WHERE j.status = 'running')::int AS running,
               count(*) FILTER (WHERE ${stuckCondition(stuckMinutes)})::int AS stuck,
               count(*) FILTER (WHERE j.status = 'done')::int AS done,
               count(*) FILTER (WHERE j.status = 'failed')::int AS failed
        FROM jobs j GROUP BY j.type ORDER BY j.type`,
  );
  const totals = { queued: 0, running: 0, stuck: 0, done: 0, failed: 0 };
  for (const row of rows) for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += row[key];
  return { byType: rows, totals };
}

/** A job just queued again, and the state it was in. */
export type RetriedJob = JobRow & { previousStatus: JobRow['status'] };

export const JOB_NOT_FOUND_MESSAGE = 'That job does not exist (finished jobs are deleted after a while).';
export const JOB_NOT_RETRYABLE_MESSAGE = 'Only failed or stuck jobs, or jobs waiting to retry after an error, can be retried.';

/**
 * Runs a job again now: a failed job, a stuck one (taken from its worker,
 * which stops at its next lease renewal and records nothing), or one
 * waiting out its backoff after an error. It keeps its attempt count and
 * gets one more attempt if it had none left, so a job that fails again
 * is failed again rather than retried for hours. One conditional UPDATE,
 * so two retries at once, or a retry racing the worker, queue it once.
 */
export async function requeueJob(
  db: Database,
  id: string,
  { stuckMinutes = getConfig().jobs.stuckMinutes } = {},
): Promise<RetriedJob> {
  const updated = await queryRows<{ id: string; was: JobRow['status'] }>(
    db,
    sql`UPDATE jobs j SET status = 'queued', run_at = now(), locked_by = NULL, locked_until = NULL, finished_at = NULL,
               max_attempts = GREATEST(j.max_attempts, j.attempts + 1), updated_at = now()
        FROM (SELECT id, status AS was FROM jobs WHERE id = ${id} FOR UPDATE) before
        WHERE j.id = before.id
          AND (j.status = 'failed' OR (j.status = 'queued' AND j.last_error IS NOT NULL) OR ${stuckCondition(stuckMinutes)})
        RETURNING j.id, before.was`,
  );
  if (!updated[0]) {
    const [exists] = await queryRows<{ status: string }>(db, sql`SELECT status FROM jobs WHERE id = ${id}`);
    if (!exists) throw new ApiError(404, JOB_NOT_FOUND_MESSAGE);
    throw conflict(JOB_NOT_RETRYABLE_MESSAGE);
  }
  const [row] = await selectJobs(db, sql`j.id = ${id}`, sql`j.id`, 1, stuckMinutes);
  return { ...toRow(row!), previousStatus: updated[0].was };
}

function retrySummary(job: RetriedJob): string {
  const target = job.target ? ` (${job.target.label})` : '';
  if (job.previousStatus === 'queued') return `Retried ${job.type} job before its next scheduled attempt${target}`;
  return `Retried ${job.previousStatus === 'running' ? 'stuck' : 'failed'} ${job.type} job${target}`;
}

const retryDetails = (job: RetriedJob) => ({
  type: job.type,
  previousStatus: job.previousStatus,
  attempts: job.attempts,
  lastError: job.lastError?.slice(0, 500) ?? null,
});

// ---------- Services (the caller is checked) ----------

export async function listJobsForAdmin(
  actor: Actor,
  state: JobListState,
  limit = 50,
): Promise<{ jobs: JobRow[]; hasMore: boolean }> {
  requireAdmin(actor);
  return readJobs(await getDb(), state, { limit });
}

export async function jobCountsForAdmin(actor: Actor): Promise<JobCounts> {
  requireAdmin(actor);
  return readJobCounts(await getDb());
}

/** POST /api/admin/jobs/{id}/retry: an admin (second factor passed) runs a job again now; audit-logged with the retry, in one transaction. */
export async function retryJob(actor: Actor, id: string): Promise<RetriedJob> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  const job = await db.transaction(async (tx) => {
    const requeued = await requeueJob(tx, id);
    await recordAdminAction(tx, admin, {
      action: 'job.retry',
      targetType: 'job',
      targetId: id,
      summary: retrySummary(requeued),
      details: retryDetails(requeued),
    });
    return requeued;
  });
  wakeWorkers();
  return job;
}

/** `npm run jobs -- retry ID`: the operator at the console; logged as such in the audit log. */
export async function retryJobAsOperator(db: Database, id: string, operator = 'operator (npm run jobs)'): Promise<RetriedJob> {
  return db.transaction(async (tx) => {
    const requeued = await requeueJob(tx, id);
    await tx.insert(adminAuditLog).values({
      adminId: null,
      adminUsername: operator,
      action: 'job.retry',
      targetType: 'job',
      targetId: id,
      summary: retrySummary(requeued),
      details: retryDetails(requeued),
    });
    return requeued;
  });
}
