import { handler } from '@/lib/server/http';
import { getVideoFor } from '@/lib/server/videos/access';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// GET /api/videos/{streamVideoId} — the video; its owner and admins also get status, review and playback URLs.
export const GET = handler({ params: streamVideoIdParamsSchema }, async ({ actor, params }) => ({ video: await getVideoFor(actor, params.streamVideoId) }));
