import { handler } from '@/lib/server/route-handler';
import { markNotificationRead } from '@/lib/server/notifications/feed';
import { notificationIdParamsSchema } from '@/lib/validation/community';

// PUT /api/notifications/{id}/read — marks one of the caller's notifications read: { success, notification, unreadCount }; 404 for anyone else's.
export const PUT = handler({ auth: 'member', params: notificationIdParamsSchema }, async ({ actor, params }) =>
  markNotificationRead(actor, params.id),
);
