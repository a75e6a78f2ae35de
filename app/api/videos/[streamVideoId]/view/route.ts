import { clientAddress } from '@/lib/server/client-address';
import { handler } from '@/lib/server/route-handler';
import { recordView } from '@/lib/server/videos/views';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// POST /api/videos/{streamVideoId}/view — the player calls this when playback starts; counts once per viewer per 24 h, never for bots.
export const POST = handler({ params: streamVideoIdParamsSchema }, async ({ actor, request, params }) =>
  recordView(actor, params.streamVideoId, { address: clientAddress(request), userAgent: request.headers.get('user-agent') }),
);
