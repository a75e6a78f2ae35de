import { handler } from '@/lib/server/route-handler';
import { viewDocument } from '@/lib/server/verification';
import { verificationIdParamsSchema } from '@/lib/validation/verification';

// GET /api/admin/documents/{id} — any private document (identity, selfie, performer ID or release), to admins only; every view is in the audit log.
export const GET = handler({ auth: 'admin', params: verificationIdParamsSchema }, async ({ actor, params }) =>
  viewDocument(actor, params.id),
);
