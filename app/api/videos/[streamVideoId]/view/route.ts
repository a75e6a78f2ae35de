import { findSession } from '@/lib/server/auth/session';
import { ApiError } from '@/lib/server/errors';
import { clientAddress } from '@/lib/server/client-address';
import { json, route } from '@/lib/server/http';
import { findVideoRow, isPublicRow } from '@/lib/server/videos/catalog';
import { countView, isBot, viewerKeyOf } from '@/lib/server/videos/views';

type Context = { params: Promise<{ streamVideoId: string }> };

// POST /api/videos/{streamVideoId}/view — the player calls this when playback starts; counts once per viewer per 24 h, never for bots.
export const POST = route<Context>(async (request, { params }) => {
  const { streamVideoId } = await params;
  const row = await findVideoRow(streamVideoId);
  if (!row || !isPublicRow(row)) throw new ApiError(404, 'Video not found');
  const userAgent = request.headers.get('user-agent');
  if (isBot(userAgent)) return json({ counted: false, views: Number(row.views) });
  const auth = await findSession(request);
  const result = await countView(row.id, viewerKeyOf(auth?.user.id ?? null, clientAddress(request)));
  return json({ counted: result.counted, views: result.views ?? Number(row.views) });
});
