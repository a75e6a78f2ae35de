import { handler } from '@/lib/server/route-handler';
import { listCategoryVideos, listRecentVideos } from '@/lib/server/videos/catalog';
import { videoListQuerySchema } from '@/lib/validation/videos';

// GET /api/videos?limit&page[&cursor][&category][&sort][&duration] — public videos, newest first unless `sort` says otherwise: { videos, pagination: { page, limit, hasMore, nextCursor } }.
export const GET = handler({ query: videoListQuerySchema }, async ({ query }) => {
  const page = { limit: query.limit, page: query.page, cursor: query.cursor };
  const order = { sort: query.sort, duration: query.duration };
  return query.category ? listCategoryVideos(query.category, page, order) : listRecentVideos(page, order);
});
