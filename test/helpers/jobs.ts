import type { JobContext } from '@/lib/server/jobs/worker';

/** The context of a job run by hand (no worker): its lease is never lost. */
export function heldJobContext(): JobContext {
  return { signal: new AbortController().signal };
}
