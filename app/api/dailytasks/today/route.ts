import { handler } from '@/lib/server/route-handler';
import { getTodaysTask } from '@/lib/server/tasks/daily-task';

// GET /api/dailytasks/today — today's task (UTC day) for a VIP member: { description, day, completed, nextTaskAt, streak }; 404 when there is none.
export const GET = handler({ auth: 'member' }, async ({ actor }) => getTodaysTask(actor));
