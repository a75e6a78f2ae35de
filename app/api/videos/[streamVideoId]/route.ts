import { findSession } from '@/lib/server/auth/session';
import { json, route } from '@/lib/server/http';
import { getVideoFor } from '@/lib/server/videos/access';

type Context = { params: Promise<{ streamVideoId: string }> };

// GET /api/videos/{streamVideoId} — the video; its owner and admins also get status, review and playback URLs.
export const GET = route<Context>(async (request, { params }) => {
  const { streamVideoId } = await params;
  return json({ video: await getVideoFor(streamVideoId, await findSession(request)) });
});
