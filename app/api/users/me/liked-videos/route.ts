import { requireUser } from '@/lib/server/auth/session';
import { listLikedVideos } from '@/lib/server/community/likes';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { likedVideosQuerySchema } from '@/lib/validation/community';
import { queryOf } from '@/lib/validation/videos';

// GET /api/users/me/liked-videos?limit&page[&cursor] — the caller's liked public videos, newest like first: { videos, pagination }.
export const GET = route(async (request) => {
  const auth = await requireUser(request);
  const query = parseInput(likedVideosQuerySchema, queryOf(request.url));
  return json(await listLikedVideos(auth.user, { limit: query.limit, page: query.page, cursor: query.cursor }));
});
