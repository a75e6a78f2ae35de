import { setAdmin } from '@/lib/server/admin/members';
import { handler } from '@/lib/server/route-handler';
import { memberIdParamsSchema } from '@/lib/validation/admin';

// POST /api/admin/users/{id}/admin — makes the member an admin: { member }.
export const POST = handler({ auth: 'admin', params: memberIdParamsSchema }, async ({ actor, params }) => ({
  member: await setAdmin(actor, params.id, true),
}));

// DELETE /api/admin/users/{id}/admin — removes admin rights (409 for the last admin): { member }.
export const DELETE = handler({ auth: 'admin', params: memberIdParamsSchema }, async ({ actor, params }) => ({
  member: await setAdmin(actor, params.id, false),
}));
