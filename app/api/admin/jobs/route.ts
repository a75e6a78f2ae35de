import { jobCountsForAdmin, listJobsForAdmin } from '@/lib/server/jobs/admin';
import { handler } from '@/lib/server/route-handler';
import { jobsQuerySchema } from '@/lib/validation/jobs';

// GET /api/admin/jobs?state=failed|stuck|retrying|queued|running&limit — counts by state and type, and the jobs in one state: { counts, jobs, hasMore }.
export const GET = handler({ auth: 'admin', query: jobsQuerySchema }, async ({ actor, query }) => ({
  counts: await jobCountsForAdmin(actor),
  ...(await listJobsForAdmin(actor, query.state, query.limit)),
}));
