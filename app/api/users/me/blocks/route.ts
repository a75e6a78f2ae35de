import { listBlocks } from '@/lib/server/community/blocks';
import { handler } from '@/lib/server/route-handler';

// GET /api/users/me/blocks — the members the caller has blocked, most recent first.
export const GET = handler({ auth: 'member' }, async ({ actor }) => ({ blocks: await listBlocks(actor) }));
