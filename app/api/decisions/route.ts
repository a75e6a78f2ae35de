import { handler } from '@/lib/server/route-handler';
import { listMyDecisions } from '@/lib/server/trust/statements';
import { decisionListQuerySchema } from '@/lib/validation/trust';

// GET /api/decisions?page&limit — "Decisions about you": the caller's statements of reasons, newest first: { decisions, pagination }.
export const GET = handler({ auth: 'member', query: decisionListQuerySchema }, async ({ actor, query }) =>
  listMyDecisions(actor, query),
);
