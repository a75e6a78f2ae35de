import { listMembers } from '@/lib/server/admin/members';
import { handler } from '@/lib/server/route-handler';
import { memberListQuerySchema } from '@/lib/validation/admin';

// GET /api/admin/users?q&filter=all|banned|admins|vip|unverified&page&limit — members, newest first.
export const GET = handler({ auth: 'admin', query: memberListQuerySchema }, ({ actor, query }) => listMembers(actor, query));
