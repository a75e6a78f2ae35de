import { handler } from '@/lib/server/route-handler';
import { grantManualVip, revokeVip } from '@/lib/server/vip/entitlements';
import { memberIdParamsSchema, vipGrantSchema, vipRevokeSchema } from '@/lib/validation/admin';

// POST /api/admin/users/{id}/vip — { days, note? }: VIP for that many more days (manual grant): { vipUntil }.
export const POST = handler({ auth: 'admin', params: memberIdParamsSchema, body: vipGrantSchema }, ({ actor, params, body }) =>
  grantManualVip(actor, params.id, body),
);

// DELETE /api/admin/users/{id}/vip — { note? } (body optional): ends the member's VIP now: { revoked }; 409 when they have none.
export const DELETE = handler(
  { auth: 'admin', params: memberIdParamsSchema, body: vipRevokeSchema, optionalBody: true },
  ({ actor, params, body }) => revokeVip(actor, params.id, body),
);
