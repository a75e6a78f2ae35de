import { getMemberDetail } from '@/lib/server/admin/members';
import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { memberIdParamsSchema } from '@/lib/validation/admin';

type Context = { params: Promise<{ id: string }> };

// GET /api/admin/users/{id} — one member: account, counts, VIP periods, admin history.
export const GET = route<Context>(async (request, { params }) => {
  await requireAdmin(request);
  const { id } = parseInput(memberIdParamsSchema, await params);
  return json({ member: await getMemberDetail(id) });
});
