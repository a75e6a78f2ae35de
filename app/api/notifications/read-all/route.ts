import { requireUser } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { markAllNotificationsRead } from '@/lib/server/notifications/feed';
import { readAllQuerySchema } from '@/lib/validation/community';
import { queryOf } from '@/lib/validation/videos';

// PUT /api/notifications/read-all[?upTo=<id>] — marks the caller's notifications read (with upTo: that one and older): { success, updated, unreadCount }.
export const PUT = route(async (request) => {
  const auth = await requireUser(request);
  const { upTo } = parseInput(readAllQuerySchema, queryOf(request.url));
  return json(await markAllNotificationsRead(auth, upTo));
});
