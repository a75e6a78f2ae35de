import { json, route } from '@/lib/server/http';
import { getTodaysTask } from '@/lib/server/tasks/daily-task';
import { requireVip } from '@/lib/server/vip/access';

// GET /api/dailytasks/today — today's task (UTC day) for a VIP member: { description, day, completed, nextTaskAt, streak }; 404 when there is none.
export const GET = route(async (request) => {
  const auth = await requireVip(request);
  return json(await getTodaysTask(auth));
});
