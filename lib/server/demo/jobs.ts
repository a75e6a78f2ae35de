import 'server-only';

import type { JobHandler } from '../jobs/worker';

import { SEED_DEMO_JOB, seedDemoContent } from './seed-demo';
import { logger } from '@/lib/server/log';

const log = logger('demo');

/** seed-demo: generates the demo videos (queued once, on the first start of an empty embedded database). */
export const seedDemoJob: JobHandler = async (job, { signal }) => {
  const count = Number(job.payload.count);
  const durationSeconds = Number(job.payload.durationSeconds);
  const result = await seedDemoContent({
    count: Number.isInteger(count) && count > 0 ? count : undefined,
    durationSeconds: durationSeconds > 0 ? durationSeconds : undefined,
    signal,
  });
  if (result.skipped) log.info('the site has content of its own by now: no demo videos made');
  else if (result.created > 0)
    log.info(`${result.created} demo videos queued for processing (start with SEED_DEMO=0 to skip demo content)`);
};

/**
 * Job handlers of the demo content, merged with the media pipeline's by the
 * worker's callers: `{ ...JOB_HANDLERS, ...DEMO_JOB_HANDLERS }`.
 */
export const DEMO_JOB_HANDLERS: Record<string, JobHandler> = {
  [SEED_DEMO_JOB]: seedDemoJob,
};
