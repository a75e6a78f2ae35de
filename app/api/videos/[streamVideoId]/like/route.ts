import { like, likeState, unlike } from '@/lib/server/community/likes';
import { findSession, requireUser } from '@/lib/server/auth/session';
import { json, route } from '@/lib/server/http';

type Context = { params: Promise<{ streamVideoId: string }> };

// GET /api/videos/{streamVideoId}/like — { liked, likes } for the caller (visitors: liked false); 404 unless public.
export const GET = route<Context>(async (request, { params }) => {
  const { streamVideoId } = await params;
  const auth = await findSession(request);
  return json(await likeState(auth && !auth.user.bannedAt ? auth.user : null, streamVideoId));
});

// POST /api/videos/{streamVideoId}/like — like (idempotent): { liked: true, likes }; 400 own video or bad id, 401, 404.
export const POST = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  return json(await like(auth.user, (await params).streamVideoId));
});

// DELETE /api/videos/{streamVideoId}/like — remove the caller's like (idempotent): { liked: false, likes }.
export const DELETE = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  return json(await unlike(auth.user, (await params).streamVideoId));
});
