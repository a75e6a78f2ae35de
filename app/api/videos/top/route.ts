import { handler } from '@/lib/server/route-handler';
import { listTopVideos } from '@/lib/server/videos/catalog';
import { topVideosQuerySchema } from '@/lib/validation/videos';

// GET /api/videos/top?limit — { videos } ranked by views + 10 × likes (docs/api.md).
export const GET = handler({ query: topVideosQuerySchema }, async ({ query }) => ({ videos: await listTopVideos(query.limit) }));
