import { handler } from '@/lib/server/route-handler';
import { listCaptions } from '@/lib/server/videos/captions';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// GET /api/videos/{streamVideoId}/captions — the video's captions for its owner or an admin: { captions: [{ language, label, url, cueCount, updatedAt }] }; 401, 403, 404.
export const GET = handler({ auth: 'member', params: streamVideoIdParamsSchema }, async ({ actor, params }) =>
  listCaptions(actor, params.streamVideoId),
);
