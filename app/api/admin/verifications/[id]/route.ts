import { handler } from '@/lib/server/route-handler';
import { getVerification, reviewVerification } from '@/lib/server/verification';
import { verificationIdParamsSchema, verificationReviewSchema } from '@/lib/validation/verification';

// GET /api/admin/verifications/{id} — one submission, its documents' addresses and the member's other submissions.
export const GET = handler({ auth: 'admin', params: verificationIdParamsSchema }, async ({ actor, params }) => ({
  verification: await getVerification(actor, params.id),
}));

// PATCH /api/admin/verifications/{id} — { action: 'approve' } or { action: 'reject', reason }: the member is told; a rejection gets a statement of reasons.
export const PATCH = handler(
  { auth: 'admin', params: verificationIdParamsSchema, body: verificationReviewSchema },
  async ({ actor, params, body }) => reviewVerification(actor, params.id, body),
);
