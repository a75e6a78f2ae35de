import { handler } from '@/lib/server/route-handler';
import { removeFromWatchLater, saveToWatchLater } from '@/lib/server/videos/watch-later';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// PUT /api/videos/{streamVideoId}/watch-later — save to the caller's Watch later list (idempotent): { saved: true }; 400 bad id, 401, 404 unless public, 409 list full.
export const PUT = handler({ auth: 'member', params: streamVideoIdParamsSchema }, async ({ actor, params }) =>
  saveToWatchLater(actor, params.streamVideoId),
);

// DELETE /api/videos/{streamVideoId}/watch-later — remove it (idempotent): { saved: false }; 404 for a video that is neither public nor on the list.
export const DELETE = handler({ auth: 'member', params: streamVideoIdParamsSchema }, async ({ actor, params }) =>
  removeFromWatchLater(actor, params.streamVideoId),
);
