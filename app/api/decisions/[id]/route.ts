import { handler } from '@/lib/server/route-handler';
import { getDecision } from '@/lib/server/trust/statements';
import { decisionIdParamsSchema, decisionLinkSchema } from '@/lib/validation/trust';

// GET /api/decisions/{id}?e&k — one statement of reasons, for its member, an admin, or the holder of its emailed link: { decision, reader }; 404 for anyone else.
export const GET = handler({ params: decisionIdParamsSchema, query: decisionLinkSchema }, async ({ actor, params, query }) =>
  getDecision(actor, params.id, query),
);
