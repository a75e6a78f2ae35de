import { listLikedVideos } from '@/lib/server/community/likes';
import { handler } from '@/lib/server/route-handler';
import { likedVideosQuerySchema } from '@/lib/validation/community';

// GET /api/users/me/liked-videos?limit&page[&cursor] — the caller's liked public videos, newest like first: { videos, pagination }.
export const GET = handler({ auth: 'member', query: likedVideosQuerySchema }, async ({ actor, query }) =>
  listLikedVideos(actor, { limit: query.limit, page: query.page, cursor: query.cursor }),
);
