import { requireUser } from '@/lib/server/auth/session';
import { listFollowingFeed } from '@/lib/server/community/follows';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { followListQuerySchema } from '@/lib/validation/community';
import { queryOf } from '@/lib/validation/videos';

// GET /api/feed/following?limit&page&cursor — public videos of the creators the caller follows, newest first: { videos, pagination }.
export const GET = route(async (request) => {
  const auth = await requireUser(request);
  const query = parseInput(followListQuerySchema, queryOf(request.url));
  return json(await listFollowingFeed(auth.user, query));
});
