import { handler } from '@/lib/server/route-handler';
import { listVerifications } from '@/lib/server/verification';
import { verificationListQuerySchema } from '@/lib/validation/verification';

// GET /api/admin/verifications?status=pending|approved|rejected&page= — the identity review queue (pending oldest first).
export const GET = handler({ auth: 'admin', query: verificationListQuerySchema }, async ({ actor, query }) =>
  listVerifications(actor, query),
);
