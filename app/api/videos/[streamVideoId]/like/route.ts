import { like, likeState, unlike } from '@/lib/server/community/likes';
import { handler } from '@/lib/server/route-handler';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// GET /api/videos/{streamVideoId}/like — { liked, likes } for the caller (visitors: liked false); 404 unless public.
export const GET = handler({ params: streamVideoIdParamsSchema }, async ({ actor, params }) =>
  likeState(actor, params.streamVideoId),
);

// POST /api/videos/{streamVideoId}/like — like (idempotent): { liked: true, likes }; 400 own video or bad id, 401, 404.
export const POST = handler({ auth: 'member', params: streamVideoIdParamsSchema }, async ({ actor, params }) =>
  like(actor, params.streamVideoId),
);

// DELETE /api/videos/{streamVideoId}/like — remove the caller's like (idempotent): { liked: false, likes }.
export const DELETE = handler({ auth: 'member', params: streamVideoIdParamsSchema }, async ({ actor, params }) =>
  unlike(actor, params.streamVideoId),
);
