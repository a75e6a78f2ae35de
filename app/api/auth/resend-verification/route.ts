import { resendVerification } from '@/lib/server/accounts';
import { clientAddress } from '@/lib/server/client-address';
import { handler } from '@/lib/server/route-handler';
import { resendVerificationSchema } from '@/lib/validation/auth';

// POST /api/auth/resend-verification — { email } → { message }, the same whether or not the address exists.
export const POST = handler({ body: resendVerificationSchema }, async ({ request, body }) =>
  resendVerification(body, clientAddress(request)),
);
