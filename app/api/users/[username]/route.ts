import { requireUser } from '@/lib/server/auth/session';
import { requireProfile } from '@/lib/server/community/profiles';
import { json, route } from '@/lib/server/http';

type Context = { params: Promise<{ username: string }> };

// GET /api/users/{username} — the public profile { user: { _id, username, bio, profilePhotoUrl, createdAt, counts, isFollowing, isSelf } }; login required; 404.
export const GET = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  return json(await requireProfile(auth.user, (await params).username));
});
