/** Inputs of the jobs admin page, its API and `npm run jobs` (decision 023). */
import { z } from '@/lib/validation/zod';

import { positiveInt } from './common';

/** What the page, the API and the CLI list. `retrying`: queued again after an error, waiting for its next attempt. */
export const JOB_LIST_STATES = ['failed', 'stuck', 'retrying', 'queued', 'running'] as const;
export type JobListState = (typeof JOB_LIST_STATES)[number];

export const jobIdParamsSchema = z.object({ id: z.uuid({ error: 'That is not a valid job id.' }) });

export const jobsQuerySchema = z.object({
  state: z.enum(JOB_LIST_STATES, { error: `state must be one of ${JOB_LIST_STATES.join(', ')}` }).default('failed'),
  limit: positiveInt('limit', 200, 50),
});
