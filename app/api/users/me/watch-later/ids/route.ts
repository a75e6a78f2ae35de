import { handler } from '@/lib/server/route-handler';
import { watchLaterIds } from '@/lib/server/videos/watch-later';

// GET /api/users/me/watch-later/ids — { streamVideoIds } of the caller's saved public videos (the cards' saved state).
export const GET = handler({ auth: 'member' }, async ({ actor }) => watchLaterIds(actor));
