import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, route } from '@/lib/server/http';
import { deleteDailyTask, updateDailyTask } from '@/lib/server/tasks/admin';
import { dailyTaskIdParamsSchema, dailyTaskUpdateSchema } from '@/lib/validation/tasks';

type Context = { params: Promise<{ id: string }> };

// PATCH /api/admin/daily-tasks/{id} — { description?, scheduledFor? } (null: back to the pool): { task }.
export const PATCH = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(dailyTaskIdParamsSchema, await params);
  const input = parseInput(dailyTaskUpdateSchema, await readJson(request));
  return json({ task: await updateDailyTask(admin, id, input) });
});

// DELETE /api/admin/daily-tasks/{id} — { success: true }.
export const DELETE = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(dailyTaskIdParamsSchema, await params);
  return json(await deleteDailyTask(admin, id));
});
