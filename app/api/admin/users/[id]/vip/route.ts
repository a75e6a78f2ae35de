import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, readOptionalJson, route } from '@/lib/server/http';
import { grantManualVip, revokeVip } from '@/lib/server/vip/entitlements';
import { memberIdParamsSchema, vipGrantSchema, vipRevokeSchema } from '@/lib/validation/admin';

type Context = { params: Promise<{ id: string }> };

// POST /api/admin/users/{id}/vip — { days, note? }: VIP for that many more days (manual grant): { vipUntil }.
export const POST = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(memberIdParamsSchema, await params);
  const grant = parseInput(vipGrantSchema, await readJson(request));
  return json(await grantManualVip(admin, id, grant));
});

// DELETE /api/admin/users/{id}/vip — { note? } (body optional): ends the member's VIP now: { revoked }; 409 when they have none.
export const DELETE = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(memberIdParamsSchema, await params);
  return json(await revokeVip(admin, id, parseInput(vipRevokeSchema, await readOptionalJson(request))));
});
