import { handler } from '@/lib/server/route-handler';
import { vipStatus } from '@/lib/server/vip/status';

// GET /api/vip/status — login optional: { plans, paymentsAvailable, member } (member null for visitors): the /subscribe page's island reads it.
export const GET = handler({}, async ({ actor }) => vipStatus(actor));
