import { resendVerificationFor } from '@/lib/server/admin/members';
import { handler } from '@/lib/server/route-handler';
import { memberIdParamsSchema } from '@/lib/validation/admin';

// POST /api/admin/users/{id}/resend-verification — a new verification link to an unverified member: { message }.
export const POST = handler({ auth: 'admin', params: memberIdParamsSchema }, ({ actor, params }) =>
  resendVerificationFor(actor, params.id),
);
