import { handler } from '@/lib/server/route-handler';
import { removeFromHistory } from '@/lib/server/videos/history';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// DELETE /api/users/me/history/{streamVideoId} — remove one video from the caller's history (idempotent): { removed: 0 | 1 }; 400 bad id.
export const DELETE = handler({ auth: 'member', params: streamVideoIdParamsSchema }, async ({ actor, params }) =>
  removeFromHistory(actor, params.streamVideoId),
);
