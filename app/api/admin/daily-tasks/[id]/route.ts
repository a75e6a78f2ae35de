import { handler } from '@/lib/server/route-handler';
import { deleteDailyTask, updateDailyTask } from '@/lib/server/tasks/admin';
import { dailyTaskIdParamsSchema, dailyTaskUpdateSchema } from '@/lib/validation/tasks';

// PATCH /api/admin/daily-tasks/{id} — { description?, scheduledFor? } (null: back to the pool): { task }.
export const PATCH = handler(
  { auth: 'admin', params: dailyTaskIdParamsSchema, body: dailyTaskUpdateSchema },
  async ({ actor, params, body }) => ({
    task: await updateDailyTask(actor, params.id, body),
  }),
);

// DELETE /api/admin/daily-tasks/{id} — { success: true }.
export const DELETE = handler({ auth: 'admin', params: dailyTaskIdParamsSchema }, ({ actor, params }) =>
  deleteDailyTask(actor, params.id),
);
