import { requireProfile } from '@/lib/server/community/profiles';
import { handler } from '@/lib/server/route-handler';
import { usernameParamsSchema } from '@/lib/validation/params';

// GET /api/users/{username} — the public profile { user: { _id, username, bio, profilePhotoUrl, createdAt, counts, isFollowing, isSelf } }; login required; 404.
export const GET = handler({ auth: 'member', params: usernameParamsSchema }, async ({ actor, params }) =>
  requireProfile(actor, params.username),
);
