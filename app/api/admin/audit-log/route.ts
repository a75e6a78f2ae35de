import { listAuditLog } from '@/lib/server/admin/audit';
import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { auditLogQuerySchema } from '@/lib/validation/admin';
import { queryOf } from '@/lib/validation/videos';

// GET /api/admin/audit-log?action&adminId&targetType&targetId&page&limit — every admin action, newest first.
export const GET = route(async (request) => {
  await requireAdmin(request);
  return json(await listAuditLog(parseInput(auditLogQuerySchema, queryOf(request.url))));
});
