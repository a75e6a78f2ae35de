import { z } from 'zod';

import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { listForModeration, MODERATION_STATUSES } from '@/lib/server/videos/moderation';
import { queryOf, videoListQuerySchema } from '@/lib/validation/videos';

const querySchema = videoListQuerySchema.pick({ limit: true, page: true }).extend({
  status: z.enum(MODERATION_STATUSES, { error: `status must be one of ${MODERATION_STATUSES.join(', ')}` }).default('pending'),
});

// GET /api/admin/videos?status=pending|approved|rejected&page&limit — the moderation queue with counts per status.
export const GET = route(async (request) => {
  await requireAdmin(request);
  const query = parseInput(querySchema, queryOf(request.url));
  return json(await listForModeration(query.status, { page: query.page, limit: query.limit }));
});
