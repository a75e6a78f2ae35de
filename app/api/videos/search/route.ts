import { handler } from '@/lib/server/http';
import { searchVideos } from '@/lib/server/videos/search';
import { searchQuerySchema } from '@/lib/validation/videos';

// GET /api/videos/search?q&page&limit — { query, videos, pagination }, best match first.
export const GET = handler({ query: searchQuerySchema }, async ({ query }) => searchVideos(query.q, { limit: query.limit, page: query.page }));
