import { handler } from '@/lib/server/route-handler';
import { listForModeration } from '@/lib/server/videos/moderation';
import { moderationQueueQuerySchema } from '@/lib/validation/videos';

// GET /api/admin/videos?status=pending|approved|rejected&page&limit — the moderation queue with counts per status.
export const GET = handler({ auth: 'admin', query: moderationQueueQuerySchema }, ({ actor, query }) =>
  listForModeration(actor, query.status, { page: query.page, limit: query.limit }),
);
