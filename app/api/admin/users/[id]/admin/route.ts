import { setAdmin } from '@/lib/server/admin/members';
import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { memberIdParamsSchema } from '@/lib/validation/admin';

type Context = { params: Promise<{ id: string }> };

// POST /api/admin/users/{id}/admin — makes the member an admin: { member }.
export const POST = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(memberIdParamsSchema, await params);
  return json({ member: await setAdmin(admin, id, true) });
});

// DELETE /api/admin/users/{id}/admin — removes admin rights (409 for the last admin): { member }.
export const DELETE = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(memberIdParamsSchema, await params);
  return json({ member: await setAdmin(admin, id, false) });
});
