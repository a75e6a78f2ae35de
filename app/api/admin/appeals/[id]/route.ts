import { handler } from '@/lib/server/route-handler';
import { decideAppeal } from '@/lib/server/trust/appeals';
import { appealDecisionSchema, appealIdParamsSchema } from '@/lib/validation/trust';

// PATCH /api/admin/appeals/{id} — { outcome: uphold|reverse, note }: decides the appeal (not by the admin who made the decision; reversing undoes what can be undone): { message, appeal }.
export const PATCH = handler(
  { auth: 'admin', params: appealIdParamsSchema, body: appealDecisionSchema },
  async ({ actor, params, body }) => decideAppeal(actor, params.id, body),
);
