import { requireUser } from '@/lib/server/auth/session';
import { blockMember, unblockMember } from '@/lib/server/community/blocks';
import { json, route } from '@/lib/server/http';

type Context = { params: Promise<{ username: string }> };

// POST /api/users/{username}/block — the caller blocks that member (idempotent); the blocked member stops following the caller.
export const POST = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  const { block, created } = await blockMember(auth.user.id, (await params).username);
  return json({ blocked: true, block }, { status: created ? 201 : 200 });
});

// DELETE /api/users/{username}/block — lifts the caller's block (idempotent).
export const DELETE = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  const { username } = await unblockMember(auth.user.id, (await params).username);
  return json({ blocked: false, username });
});
