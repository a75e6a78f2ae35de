import { handler } from '@/lib/server/route-handler';
import { markAllNotificationsRead } from '@/lib/server/notifications/feed';
import { readAllQuerySchema } from '@/lib/validation/community';

// PUT /api/notifications/read-all[?upTo=<id>] — marks the caller's notifications read (with upTo: that one and older): { success, updated, unreadCount }.
export const PUT = handler({ auth: 'member', query: readAllQuerySchema }, async ({ actor, query }) =>
  markAllNotificationsRead(actor, query.upTo),
);
