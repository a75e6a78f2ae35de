import { listReports } from '@/lib/server/reports/list';
import { handler } from '@/lib/server/route-handler';
import { reportListQuerySchema } from '@/lib/validation/community';

// GET /api/admin/reports?status=open|resolved|dismissed&page&limit — the report queue, with each report's age, target and due date.
export const GET = handler({ auth: 'admin', query: reportListQuerySchema }, ({ actor, query }) => listReports(actor, query.status, { page: query.page, limit: query.limit }));
