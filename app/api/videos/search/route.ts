import { handler } from '@/lib/server/route-handler';
import { searchVideos } from '@/lib/server/videos/search';
import { searchQuerySchema } from '@/lib/validation/videos';

// GET /api/videos/search?q&page&limit[&sort][&duration] — { query, videos, pagination }, best match first unless `sort` says otherwise.
export const GET = handler({ query: searchQuerySchema }, async ({ query }) =>
  searchVideos(query.q, { limit: query.limit, page: query.page }, { sort: query.sort, duration: query.duration }),
);
