import { handler } from '@/lib/server/route-handler';
import { listWatchLater } from '@/lib/server/videos/watch-later';
import { watchLaterQuerySchema } from '@/lib/validation/videos';

// GET /api/users/me/watch-later?limit&page[&cursor] — the caller's saved videos that are public now, newest save first: { videos, pagination }.
export const GET = handler({ auth: 'member', query: watchLaterQuerySchema }, async ({ actor, query }) =>
  listWatchLater(actor, { limit: query.limit, page: query.page, cursor: query.cursor }),
);
