import { listFollowingFeed } from '@/lib/server/community/follows';
import { handler } from '@/lib/server/route-handler';
import { followListQuerySchema } from '@/lib/validation/community';

// GET /api/feed/following?limit&page&cursor — public videos of the creators the caller follows, newest first: { videos, pagination }.
export const GET = handler({ auth: 'member', query: followListQuerySchema }, async ({ actor, query }) =>
  listFollowingFeed(actor, query),
);
