import { requireUser } from '@/lib/server/auth/session';
import { follow, followState, unfollow } from '@/lib/server/community/follows';
import { json, route } from '@/lib/server/http';

type Context = { params: Promise<{ username: string }> };

// GET /api/users/{username}/follow — { following, followers } for the caller; 401, 404.
export const GET = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  return json(await followState(auth.user, (await params).username));
});

// POST /api/users/{username}/follow — follow (idempotent): { following: true, followers }; 400 yourself, 401, 403 blocked by them, 404.
export const POST = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  return json(await follow(auth.user, (await params).username));
});

// DELETE /api/users/{username}/follow — stop following (idempotent): { following: false, followers }.
export const DELETE = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  return json(await unfollow(auth.user, (await params).username));
});
