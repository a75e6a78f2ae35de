import { handler } from '@/lib/server/route-handler';
import { appealDecision } from '@/lib/server/trust/appeals';
import { appealSchema, decisionIdParamsSchema } from '@/lib/validation/trust';

// POST /api/decisions/{id}/appeal — { statement, e?, k? }: appeals the decision (its member, signed in or with the emailed link; once, within its window): 201 { message, appeal }.
export const POST = handler(
  { params: decisionIdParamsSchema, body: appealSchema, status: 201 },
  async ({ actor, params, body }) => appealDecision(actor, params.id, body),
);
