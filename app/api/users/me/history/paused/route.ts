import { handler } from '@/lib/server/route-handler';
import { setHistoryPaused } from '@/lib/server/videos/history';
import { historyPausedSchema } from '@/lib/validation/history';

// PUT /api/users/me/history/paused { paused } — pause (nothing is recorded) or resume the caller's history: { paused }.
export const PUT = handler({ auth: 'member', body: historyPausedSchema }, async ({ actor, body }) =>
  setHistoryPaused(actor, body.paused),
);
