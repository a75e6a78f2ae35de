import { requireUser } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { listNotifications } from '@/lib/server/notifications/feed';
import { notificationListQuerySchema } from '@/lib/validation/community';
import { queryOf } from '@/lib/validation/videos';

// GET /api/notifications?limit&cursor — the caller's notifications, newest first: { notifications, unreadCount, pagination: { hasMore, nextCursor } }.
export const GET = route(async (request) => {
  const auth = await requireUser(request);
  const query = parseInput(notificationListQuerySchema, queryOf(request.url));
  return json(await listNotifications(auth, query));
});
