import { getAdminStats } from '@/lib/server/admin/stats';
import { handler } from '@/lib/server/route-handler';
import { statsQuerySchema } from '@/lib/validation/admin';

// GET /api/admin/stats?days=14 — the dashboard: members, videos by status, uploads per day, open reports, VIP count.
export const GET = handler({ auth: 'admin', query: statsQuerySchema }, ({ actor, query }) => getAdminStats(actor, query.days));
