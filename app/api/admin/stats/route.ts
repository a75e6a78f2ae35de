import { getAdminStats } from '@/lib/server/admin/stats';
import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { statsQuerySchema } from '@/lib/validation/admin';
import { queryOf } from '@/lib/validation/videos';

// GET /api/admin/stats?days=14 — the dashboard: members, videos by status, uploads per day, open reports, VIP count.
export const GET = route(async (request) => {
  await requireAdmin(request);
  const { days } = parseInput(statsQuerySchema, queryOf(request.url));
  return json(await getAdminStats(days));
});
