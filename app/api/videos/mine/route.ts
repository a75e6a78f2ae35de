import { handler } from '@/lib/server/route-handler';
import { listOwnVideos } from '@/lib/server/videos/catalog';
import { videoListQuerySchema } from '@/lib/validation/videos';

// GET /api/videos/mine?limit&page — the caller's own uploads in every state, with processing and review status.
export const GET = handler({ auth: 'member', query: videoListQuerySchema }, async ({ actor, query }) =>
  listOwnVideos(actor, { limit: query.limit, page: query.page }),
);
