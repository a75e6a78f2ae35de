import { handler } from '@/lib/server/route-handler';
import { createDailyTask, listDailyTasks } from '@/lib/server/tasks/admin';
import { dailyTaskCreateSchema } from '@/lib/validation/tasks';

// GET /api/admin/daily-tasks — today's task as members get it, the upcoming schedule and the pool: { today, scheduled, pool }.
export const GET = handler({ auth: 'admin' }, ({ actor }) => listDailyTasks(actor));

// POST /api/admin/daily-tasks — { description, scheduledFor? } (a UTC day, today or later; none: the pool): 201 { task }.
export const POST = handler({ auth: 'admin', body: dailyTaskCreateSchema, status: 201 }, async ({ actor, body }) => ({
  task: await createDailyTask(actor, body),
}));
