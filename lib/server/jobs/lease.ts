import 'server-only';

import type { Database } from '@/lib/db';
import type { Job } from '@/lib/db/schema';

import { logger } from '../log';

import { heartbeat } from './queue';

const log = logger('worker');

/** Why a running job's signal was aborted: another worker may be running it now. */
export class LeaseLostError extends Error {
  constructor(job: Pick<Job, 'id' | 'type'>, why: string) {
    super(`${job.type} ${job.id}: ${why}`);
    this.name = 'LeaseLostError';
  }
}

export interface HeldLease {
  /** Aborted once the job is no longer safely ours. */
  signal: AbortSignal;
  /** Stops renewing (the job is finished, or given up). */
  release(): void;
}

/**
 * Keeps a claimed job's lease for as long as its handler runs, so a long
 * job (a transcode of a big video) is never taken for a dead one and run
 * twice. Renews every third of the lease, so one slow or failed renewal
 * still leaves time for the next. Aborts the signal when the job is no
 * longer ours: the renewal finds it locked by another worker, or no
 * renewal has succeeded for a whole lease (the database was unreachable,
 * and by now another worker may have claimed it).
 *
 * `claimedAt` is when the claim was sent (performance.now()), the
 * earliest the database can have started the first lease.
 */
export function holdLease(
  db: Database,
  job: Pick<Job, 'id' | 'type'>,
  workerId: string,
  leaseMs: number,
  claimedAt: number,
): HeldLease {
  const controller = new AbortController();
  let leaseStartedAt = claimedAt;
  let renewing = false;

  async function renew() {
    // A renewal still waiting on a slow database: let it finish rather than pile up queries.
    if (renewing || controller.signal.aborted) return;
    renewing = true;
    const sentAt = performance.now();
    try {
      if (await heartbeat(db, job, workerId, leaseMs)) leaseStartedAt = sentAt;
      else controller.abort(new LeaseLostError(job, 'the lease was lost: another worker holds the job'));
    } catch (error) {
      if (performance.now() - leaseStartedAt >= leaseMs) {
        controller.abort(
          new LeaseLostError(
            job,
            `the lease ran out: it could not be renewed (${error instanceof Error ? error.message : String(error)})`,
          ),
        );
      } else {
        log.warn(
          { jobId: job.id, jobType: job.type, err: error },
          `could not renew the lease of ${job.type} ${job.id}; trying again`,
        );
      }
    } finally {
      renewing = false;
    }
  }

  const timer = setInterval(() => void renew(), Math.max(1, Math.floor(leaseMs / 3)));
  return {
    signal: controller.signal,
    release: () => clearInterval(timer),
  };
}
