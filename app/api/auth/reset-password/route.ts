import { resetPassword } from '@/lib/server/accounts/password-reset';
import { clearSessionCookie } from '@/lib/server/auth/session';
import { handler, json } from '@/lib/server/route-handler';
import { resetPasswordSchema } from '@/lib/validation/auth';

// POST /api/auth/reset-password — { token, password, confirmPassword } → { message }; every session ends (this browser's cookie too), so the member logs in again.
export const POST = handler({ body: resetPasswordSchema }, async ({ body }) => {
  const response = json(await resetPassword(body));
  clearSessionCookie(response);
  return response;
});
