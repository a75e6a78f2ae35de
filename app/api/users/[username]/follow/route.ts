import { follow, followState, unfollow } from '@/lib/server/community/follows';
import { handler } from '@/lib/server/route-handler';
import { usernameParamsSchema } from '@/lib/validation/params';

// GET /api/users/{username}/follow — { following, followers } for the caller; 401, 404.
export const GET = handler({ auth: 'member', params: usernameParamsSchema }, async ({ actor, params }) =>
  followState(actor, params.username),
);

// POST /api/users/{username}/follow — follow (idempotent): { following: true, followers }; 400 yourself, 401, 403 blocked by them, 404.
export const POST = handler({ auth: 'member', params: usernameParamsSchema }, async ({ actor, params }) =>
  follow(actor, params.username),
);

// DELETE /api/users/{username}/follow — stop following (idempotent): { following: false, followers }.
export const DELETE = handler({ auth: 'member', params: usernameParamsSchema }, async ({ actor, params }) =>
  unfollow(actor, params.username),
);
