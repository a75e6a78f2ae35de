import { json, route } from '@/lib/server/http';
import { parseInput } from '@/lib/server/errors';
import { listTopVideos } from '@/lib/server/videos/catalog';
import { queryOf, topVideosQuerySchema } from '@/lib/validation/videos';

// GET /api/videos/top?limit — { videos } ranked by views + 10 × likes (docs/api.md).
export const GET = route(async (request) => {
  const { limit } = parseInput(topVideosQuerySchema, queryOf(request.url));
  return json({ videos: await listTopVideos(limit) });
});
