import { listMembers } from '@/lib/server/admin/members';
import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { memberListQuerySchema } from '@/lib/validation/admin';
import { queryOf } from '@/lib/validation/videos';

// GET /api/admin/users?q&filter=all|banned|admins|vip|unverified&page&limit — members, newest first.
export const GET = route(async (request) => {
  await requireAdmin(request);
  return json(await listMembers(parseInput(memberListQuerySchema, queryOf(request.url))));
});
