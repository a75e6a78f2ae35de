import { listAuditLog } from '@/lib/server/admin/audit';
import { handler } from '@/lib/server/route-handler';
import { auditLogQuerySchema } from '@/lib/validation/admin';

// GET /api/admin/audit-log?action&adminId&targetType&targetId&page&limit — every admin action, newest first.
export const GET = handler({ auth: 'admin', query: auditLogQuerySchema }, ({ actor, query }) => listAuditLog(actor, query));
