import { requireUser } from '@/lib/server/auth/session';
import { json, route } from '@/lib/server/http';
import { parseInput } from '@/lib/server/errors';
import { listOwnVideos } from '@/lib/server/videos/catalog';
import { queryOf, videoListQuerySchema } from '@/lib/validation/videos';

// GET /api/videos/mine?limit&page — the caller's own uploads in every state, with processing and review status.
export const GET = route(async (request) => {
  const auth = await requireUser(request);
  const query = parseInput(videoListQuerySchema, queryOf(request.url));
  return json(await listOwnVideos(auth.user.id, { limit: query.limit, page: query.page }));
});
