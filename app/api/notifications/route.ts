import { handler } from '@/lib/server/route-handler';
import { listNotifications } from '@/lib/server/notifications/feed';
import { notificationListQuerySchema } from '@/lib/validation/community';

// GET /api/notifications?limit&cursor — the caller's notifications, newest first: { notifications, unreadCount, pagination: { hasMore, nextCursor } }.
export const GET = handler({ auth: 'member', query: notificationListQuerySchema }, async ({ actor, query }) =>
  listNotifications(actor, query),
);
