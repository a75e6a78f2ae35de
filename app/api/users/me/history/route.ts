import { handler } from '@/lib/server/route-handler';
import { clearHistory, listHistory } from '@/lib/server/videos/history';
import { historyQuerySchema } from '@/lib/validation/history';

// GET /api/users/me/history?limit&page[&cursor][&unfinished=true] — the caller's history, most recently watched first: { videos (each with progress), pagination, paused }.
export const GET = handler({ auth: 'member', query: historyQuerySchema }, async ({ actor, query }) =>
  listHistory(actor, { limit: query.limit, page: query.page, cursor: query.cursor, unfinished: query.unfinished === 'true' }),
);

// DELETE /api/users/me/history — clear it all: { removed }.
export const DELETE = handler({ auth: 'member' }, async ({ actor }) => clearHistory(actor));
