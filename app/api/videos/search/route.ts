import { json, route } from '@/lib/server/http';
import { parseInput } from '@/lib/server/errors';
import { searchVideos } from '@/lib/server/videos/search';
import { queryOf, searchQuerySchema } from '@/lib/validation/videos';

// GET /api/videos/search?q&page&limit — { query, videos, pagination }, best match first.
export const GET = route(async (request) => {
  const query = parseInput(searchQuerySchema, queryOf(request.url));
  return json(await searchVideos(query.q, { limit: query.limit, page: query.page }));
});
