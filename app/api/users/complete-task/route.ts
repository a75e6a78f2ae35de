import { json, route } from '@/lib/server/http';
import { completeTodaysTask } from '@/lib/server/tasks/daily-task';
import { requireVip } from '@/lib/server/vip/access';

// POST /api/users/complete-task — completes today's task once per UTC day: { success, tasks, lastTaskCompleted, streak }; 409 the second time, 404 without a task.
export const POST = route(async (request) => {
  const auth = await requireVip(request);
  return json(await completeTodaysTask(auth));
});
