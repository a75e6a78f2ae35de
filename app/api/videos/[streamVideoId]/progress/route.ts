import { handler } from '@/lib/server/route-handler';
import { getProgress, saveProgress } from '@/lib/server/videos/history';
import { progressSchema } from '@/lib/validation/history';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// GET /api/videos/{streamVideoId}/progress — where the caller stopped: { progress: { positionSeconds, finished, watchedAt } | null, paused }; 400 bad id, 401.
export const GET = handler({ auth: 'member', params: streamVideoIdParamsSchema }, async ({ actor, params }) =>
  getProgress(actor, params.streamVideoId),
);

// PUT /api/videos/{streamVideoId}/progress { positionSeconds } — save it (one upsert): { saved, paused }; 400 bad id or position, 401, 404 unless public or the caller's own, 429.
export const PUT = handler(
  { auth: 'member', params: streamVideoIdParamsSchema, body: progressSchema },
  async ({ actor, params, body }) => saveProgress(actor, params.streamVideoId, body.positionSeconds),
);
