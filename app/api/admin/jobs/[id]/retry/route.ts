import { retryJob } from '@/lib/server/jobs/admin';
import { handler } from '@/lib/server/route-handler';
import { jobIdParamsSchema } from '@/lib/validation/jobs';

// POST /api/admin/jobs/{id}/retry — runs a failed or stuck job (or one waiting to retry) again now, audit-logged: { job }; 404 unknown, 409 not retryable.
export const POST = handler({ auth: 'admin', params: jobIdParamsSchema }, async ({ actor, params }) => ({
  job: await retryJob(actor, params.id),
}));
