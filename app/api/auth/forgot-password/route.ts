import { requestPasswordReset } from '@/lib/server/accounts/password-reset';
import { clientAddress } from '@/lib/server/client-address';
import { handler } from '@/lib/server/route-handler';
import { forgotPasswordSchema } from '@/lib/validation/auth';

// POST /api/auth/forgot-password — { email } → { message }, the same whether or not the address has an account; the link is mailed by a job.
export const POST = handler({ body: forgotPasswordSchema }, async ({ request, body }) =>
  requestPasswordReset(body, clientAddress(request)),
);
