import { handler } from '@/lib/server/route-handler';
import { listAppeals } from '@/lib/server/trust/appeals';
import { appealListQuerySchema } from '@/lib/validation/trust';

// GET /api/admin/appeals?status&page&limit — the appeal queue (open oldest first) with counts per status: { appeals, counts, pagination }.
export const GET = handler({ auth: 'admin', query: appealListQuerySchema }, async ({ actor, query }) =>
  listAppeals(actor, query),
);
