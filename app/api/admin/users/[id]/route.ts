import { getMemberDetail } from '@/lib/server/admin/members';
import { handler } from '@/lib/server/route-handler';
import { memberIdParamsSchema } from '@/lib/validation/admin';

// GET /api/admin/users/{id} — one member: account, counts, VIP periods, admin history.
export const GET = handler({ auth: 'admin', params: memberIdParamsSchema }, async ({ actor, params }) => ({
  member: await getMemberDetail(actor, params.id),
}));
