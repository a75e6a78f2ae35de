import 'server-only';

import { randomUUID } from 'node:crypto';
import os from 'node:os';

import { isDatabaseConnectionLoss, reportDatabaseOutage } from '@/lib/db/connection-loss';
import { onAppEvent } from '@/lib/events';
import type { Database } from '@/lib/db';
import type { Job } from '@/lib/db/schema';

import { HEARTBEAT_MS, recordHeartbeat, removeHeartbeat } from './heartbeat';
import { logger, runWithLogContext } from '../log';
import { metrics } from '../metrics';

import { holdLease } from './lease';
import { claim, complete, fail } from './queue';

export interface JobContext {
  /**
   * Aborted when this worker lost the job's lease (another worker may be
   * running it now): stop working, e.g. pass it to ffmpeg runs. The worker
   * renews the lease itself while the handler runs.
   */
  signal: AbortSignal;
}

/** Handlers must be idempotent: a job can run again after a crash or a lost lease. */
export type JobHandler = (job: Job, context: JobContext) => Promise<void>;

export interface WorkerOptions {
  handlers: Record<string, JobHandler>;
  concurrency?: number;
  pollMs?: number;
  leaseMs?: number;
  baseBackoffMs?: number;
  onError?: (job: Job, error: unknown, status: 'queued' | 'failed') => void;
}

export interface RunningWorker {
  id: string;
  /** Stops claiming, waits for running jobs to finish, then resolves. */
  stop(): Promise<void>;
}

/** Pause after the nth error in a row of a worker loop (a database outage): the poll interval, doubling, at most a minute. */
export function errorBackoffMs(errorsInARow: number, pollMs: number): number {
  return Math.min(pollMs * 2 ** Math.max(0, errorsInARow - 1), 60_000);
}

/**
 * Runs jobs: inside the web process in the embedded mode, or as separate
 * `npm run worker` processes beside PostgreSQL. Polls while idle, drains
 * without waiting while there is work.
 */
const log = logger('worker');

export function startWorker(db: Database, options: WorkerOptions): RunningWorker {
  const id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const types = Object.keys(options.handlers);
  const concurrency = options.concurrency ?? 1;
  const pollMs = options.pollMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 60_000;
  let stopping = false;
  let lastBeat = -Infinity;

  /** Tells GET /api/ready this worker is alive (at most every HEARTBEAT_MS); a failure here shows in the claim that follows. */
  async function beat() {
    if (performance.now() - lastBeat < HEARTBEAT_MS) return;
    lastBeat = performance.now();
    await recordHeartbeat(db, id, types).catch(() => undefined);
  }

  /**
   * Runs one claimed job while holding its lease, then records the outcome.
   * When the lease was lost the outcome is not ours to record: the worker
   * that holds the job now does. Errors recording it (the database is
   * down) go to the loop; the job then stays claimed until its lease runs
   * out and is run again.
   */
  async function runOne(job: Job, claimedAt: number) {
    const handler = options.handlers[job.type]!;
    const lease = holdLease(db, job, id, leaseMs, claimedAt);
    // A long job (a transcode) keeps the worker counted as alive.
    const beating = setInterval(() => void beat(), HEARTBEAT_MS);
    const { jobDuration, jobFailures } = metrics();
    const timer = jobDuration.startTimer({ type: job.type });
    try {
      let failure: { error: unknown } | null = null;
      try {
        // Every record the handler writes names the job (lib/server/log).
        await runWithLogContext({ jobId: job.id, jobType: job.type }, () => handler(job, { signal: lease.signal }));
      } catch (error) {
        failure = { error };
      }
      if (lease.signal.aborted) {
        timer({ outcome: 'lost' });
        log.error(
          { jobId: job.id, jobType: job.type, err: lease.signal.reason },
          `${job.type} ${job.id} stopped: this worker lost its lease`,
        );
        return;
      }
      if (!failure) {
        timer({ outcome: 'done' });
        await complete(db, job, id);
      } else {
        const status = await fail(db, job, id, failure.error, options.baseBackoffMs);
        timer({ outcome: status === 'failed' ? 'failed' : 'retry' });
        jobFailures.inc({ type: job.type, final: String(status === 'failed') });
        log.error(
          { jobId: job.id, jobType: job.type, attempt: job.attempts, maxAttempts: job.maxAttempts, err: failure.error },
          `${job.type} ${job.id} ${status === 'failed' ? 'gave up' : 'will retry'}`,
        );
        options.onError?.(job, failure.error, status);
      }
    } finally {
      clearInterval(beating);
      lease.release();
    }
  }

  /** Claims and runs jobs until stopped. Never ends on an error: it logs, waits longer after each one in a row, and goes on. */
  async function loop() {
    let errorsInARow = 0;
    while (!stopping) {
      try {
        await beat();
        const claimedAt = performance.now();
        const job = await claim(db, id, types, leaseMs);
        if (job) await runOne(job, claimedAt);
        else await idle(pollMs);
        errorsInARow = 0;
      } catch (error) {
        errorsInARow += 1;
        const delay = errorBackoffMs(errorsInARow, pollMs);
        if (isDatabaseConnectionLoss(error)) reportDatabaseOutage(error, `${id}'s job loop, going on in ${delay} ms`);
        else
          log.error(
            { workerId: id, errorsInARow, delayMs: delay, err: error },
            `job loop error (${errorsInARow} in a row); going on in ${delay} ms`,
          );
        // A wake cuts the pause short: a job was just committed, so the database answers again.
        await idle(delay);
      }
    }
  }

  /**
   * Idle loops of this worker. A job committed in this process (wakeWorkers() in lib/events.ts) wakes them
   * at once instead of after the poll interval, so an upload is playable sooner; on PostgreSQL so does one
   * committed in any other process (lib/server/cluster, decision 022).
   */
  const sleepers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...sleepers]) wake();
  };
  const stopListening = onAppEvent('jobs-enqueued', wakeAll);

  /** Sleeps for ms, or until a job is enqueued in this process or stop(). */
  function idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
  }

  const loops = Array.from({ length: concurrency }, () => loop());
  return {
    id,
    async stop() {
      stopping = true;
      stopListening();
      wakeAll();
      await Promise.all(loops);
      await removeHeartbeat(db, id).catch(() => undefined);
    },
  };
}
