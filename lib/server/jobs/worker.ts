import 'server-only';

import { randomUUID } from 'node:crypto';
import os from 'node:os';

import type { Database } from '@/lib/db';
import type { Job } from '@/lib/db/schema';

import { claim, complete, fail, heartbeat } from './queue';

export interface JobContext {
  /** Call during long work to keep the lease; returns false if the job was taken away. */
  heartbeat(): Promise<boolean>;
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

// On globalThis: Next bundles route handlers and instrumentation (which starts the workers) as separate module instances.
const WAKE_LISTENERS = Symbol.for('chrysalis.workerWakeListeners');
const wakeListeners: Set<() => void> = ((globalThis as Record<symbol, unknown>)[WAKE_LISTENERS] ??= new Set<() => void>()) as Set<() => void>;

/**
 * Tells this process's idle workers that a job was just committed, so it
 * starts at once instead of after the poll interval (an upload is playable
 * sooner). Call after the enqueueing transaction commits. Workers in other
 * processes still find it on their next poll.
 */
export function wakeWorkers(): void {
  for (const wake of wakeListeners) wake();
}

/**
 * Runs jobs: inside the web process in the embedded mode, or as separate
 * `npm run worker` processes beside PostgreSQL. Polls while idle, drains
 * without waiting while there is work.
 */
export function startWorker(db: Database, options: WorkerOptions): RunningWorker {
  const id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const types = Object.keys(options.handlers);
  const concurrency = options.concurrency ?? 1;
  const pollMs = options.pollMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 60_000;
  let stopping = false;

  async function runOne(job: Job) {
    const handler = options.handlers[job.type]!;
    try {
      await handler(job, { heartbeat: () => heartbeat(db, job, id, leaseMs) });
      await complete(db, job, id);
    } catch (error) {
      const status = await fail(db, job, id, error, options.baseBackoffMs);
      options.onError?.(job, error, status);
    }
  }

  async function loop() {
    while (!stopping) {
      let job: Job | null = null;
      try {
        job = await claim(db, id, types, leaseMs);
      } catch (error) {
        console.error('[worker] could not claim a job:', error);
      }
      if (job) await runOne(job);
      else await idle();
    }
  }

  /** Sleeps for the poll interval, or until wakeWorkers() or stop(). */
  function idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeListeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, pollMs);
      wakeListeners.add(done);
    });
  }

  const loops = Array.from({ length: concurrency }, () => loop());
  return {
    id,
    async stop() {
      stopping = true;
      wakeWorkers();
      await Promise.all(loops);
    },
  };
}
