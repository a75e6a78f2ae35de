import { requireUser } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { markNotificationRead } from '@/lib/server/notifications/feed';
import { notificationIdParamsSchema } from '@/lib/validation/community';

type Context = { params: Promise<{ id: string }> };

// PUT /api/notifications/{id}/read — marks one of the caller's notifications read: { success, notification, unreadCount }; 404 for anyone else's.
export const PUT = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  const { id } = parseInput(notificationIdParamsSchema, await params);
  return json(await markNotificationRead(auth, id));
});
