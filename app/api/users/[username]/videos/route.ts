import { listProfileVideos } from '@/lib/server/community/profiles';
import { handler } from '@/lib/server/route-handler';
import { followListQuerySchema } from '@/lib/validation/community';
import { usernameParamsSchema } from '@/lib/validation/params';

// GET /api/users/{username}/videos?limit&page&cursor — their public videos, newest first: { videos, pagination }; login required; 404.
export const GET = handler(
  { auth: 'member', params: usernameParamsSchema, query: followListQuerySchema },
  async ({ actor, params, query }) => listProfileVideos(actor, params.username, query),
);
