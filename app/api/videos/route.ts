import { json, route } from '@/lib/server/http';
import { parseInput } from '@/lib/server/errors';
import { listCategoryVideos, listRecentVideos } from '@/lib/server/videos/catalog';
import { queryOf, videoListQuerySchema } from '@/lib/validation/videos';

// GET /api/videos?limit&page[&cursor][&category] — public videos, newest first: { videos, pagination: { page, limit, hasMore, nextCursor } }.
export const GET = route(async (request) => {
  const query = parseInput(videoListQuerySchema, queryOf(request.url));
  const page = { limit: query.limit, page: query.page, cursor: query.cursor };
  return json(query.category ? await listCategoryVideos(query.category, page) : await listRecentVideos(page));
});
