import { handler } from '@/lib/server/route-handler';
import { completeTodaysTask } from '@/lib/server/tasks/daily-task';

// POST /api/users/complete-task — completes today's task once per UTC day: { success, tasks, lastTaskCompleted, streak }; 409 the second time, 404 without a task.
export const POST = handler({ auth: 'member' }, async ({ actor }) => completeTodaysTask(actor));
