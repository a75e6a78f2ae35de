import { findSession } from '@/lib/server/auth/session';
import { json, route } from '@/lib/server/http';
import { vipStatus } from '@/lib/server/vip/status';

// GET /api/vip/status — login optional: { plans, paymentsAvailable, member } (member null for visitors): the /subscribe page's island reads it.
export const GET = route(async (request) => {
  const auth = await findSession(request);
  return json(await vipStatus(auth && !auth.user.bannedAt ? auth.user : null));
});
