import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, route } from '@/lib/server/http';
import { createDailyTask, listDailyTasks } from '@/lib/server/tasks/admin';
import { dailyTaskCreateSchema } from '@/lib/validation/tasks';

// GET /api/admin/daily-tasks — today's task as members get it, the upcoming schedule and the pool: { today, scheduled, pool }.
export const GET = route(async (request) => {
  await requireAdmin(request);
  return json(await listDailyTasks());
});

// POST /api/admin/daily-tasks — { description, scheduledFor? } (a UTC day, today or later; none: the pool): 201 { task }.
export const POST = route(async (request) => {
  const admin = await requireAdmin(request);
  const input = parseInput(dailyTaskCreateSchema, await readJson(request));
  return json({ task: await createDailyTask(admin, input) }, { status: 201 });
});
