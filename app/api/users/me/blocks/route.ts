import { requireUser } from '@/lib/server/auth/session';
import { listBlocks } from '@/lib/server/community/blocks';
import { json, route } from '@/lib/server/http';

// GET /api/users/me/blocks — the members the caller has blocked, most recent first.
export const GET = route(async (request) => {
  const auth = await requireUser(request);
  return json({ blocks: await listBlocks(auth.user.id) });
});
