import { requireAdmin } from '@/lib/server/auth/session';
import { listReports } from '@/lib/server/community/reports';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { reportListQuerySchema } from '@/lib/validation/community';
import { queryOf } from '@/lib/validation/videos';

// GET /api/admin/reports?status=open|resolved|dismissed&page&limit — the report queue, with each report's age, target and due date.
export const GET = route(async (request) => {
  await requireAdmin(request);
  const query = parseInput(reportListQuerySchema, queryOf(request.url));
  return json(await listReports(query.status, { page: query.page, limit: query.limit }));
});
