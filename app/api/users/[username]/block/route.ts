import { blockMember, unblockMember } from '@/lib/server/community/blocks';
import { handler, json } from '@/lib/server/route-handler';
import { usernameParamsSchema } from '@/lib/validation/params';

// POST /api/users/{username}/block — the caller blocks that member (idempotent); the blocked member stops following the caller.
export const POST = handler({ auth: 'member', params: usernameParamsSchema }, async ({ actor, params }) => {
  const { block, created } = await blockMember(actor, params.username);
  return json({ blocked: true, block }, { status: created ? 201 : 200 });
});

// DELETE /api/users/{username}/block — lifts the caller's block (idempotent).
export const DELETE = handler({ auth: 'member', params: usernameParamsSchema }, async ({ actor, params }) => {
  const { username } = await unblockMember(actor, params.username);
  return { blocked: false, username };
});
