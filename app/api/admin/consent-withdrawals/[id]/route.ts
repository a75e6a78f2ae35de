import { handler } from '@/lib/server/route-handler';
import { resolveConsentWithdrawal } from '@/lib/server/trust/consent-withdrawals';
import { withdrawalResolutionSchema } from '@/lib/validation/performers';
import { z } from '@/lib/validation/zod';

const params = z.object({ id: z.string() });

// POST /api/admin/consent-withdrawals/{id} — { action: confirm | dismiss, note }: an admin resolves a withdrawal of consent; audited.
export const POST = handler({ auth: 'admin', params, body: withdrawalResolutionSchema }, async ({ actor, params, body }) =>
  resolveConsentWithdrawal(actor, params.id, body),
);
