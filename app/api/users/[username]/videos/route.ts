import { requireUser } from '@/lib/server/auth/session';
import { listProfileVideos } from '@/lib/server/community/profiles';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { followListQuerySchema } from '@/lib/validation/community';
import { queryOf } from '@/lib/validation/videos';

type Context = { params: Promise<{ username: string }> };

// GET /api/users/{username}/videos?limit&page&cursor — their public videos, newest first: { videos, pagination }; login required; 404.
export const GET = route<Context>(async (request, { params }) => {
  await requireUser(request);
  const query = parseInput(followListQuerySchema, queryOf(request.url));
  return json(await listProfileVideos((await params).username, query));
});
